"use client";

import { SelectInput } from "@/components/editor/select-input";
import { Button, CloseIcon, PlusIcon, Textarea } from "@/components/ui";

export interface PromptMessage {
  role: string;
  content: string;
}

const ROLES = ["system", "developer", "user", "assistant"];

const readMessages = (value: unknown): PromptMessage[] =>
  Array.isArray(value)
    ? value.map((m) => ({
        role: typeof m?.role === "string" ? m.role : "user",
        content: typeof m?.content === "string" ? m.content : "",
      }))
    : [];

/**
 * A judge's prompt: its messages, each a role and a monospace text area as the agent editor's
 * instructions are edited. Placeholders (`{{inputs}}`, `{{outputs}}`, `{{correct_answer}}`) are
 * filled from the testcase and the output when the judge runs.
 */
export function PromptMessagesField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: unknown;
  onChange: (next: PromptMessage[]) => void;
}) {
  const messages = readMessages(value);
  const set = (index: number, patch: Partial<PromptMessage>) =>
    onChange(messages.map((m, i) => (i === index ? { ...m, ...patch } : m)));
  return (
    <div className="flex flex-col gap-2" id={id}>
      {messages.map((message, index) => (
        <div key={index} className="rounded-lg border border-line bg-surface-muted/40 p-2" data-testid="prompt-message">
          <div className="mb-1.5 flex items-center gap-2">
            <div className="w-36">
              <SelectInput
                aria-label={`Role of message ${index + 1}`}
                value={message.role}
                onChange={(e) => set(index, { role: e.target.value })}
              >
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </SelectInput>
            </div>
            <span className="ml-auto text-xs text-muted">{message.content.length.toLocaleString("en")} characters</span>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Remove message ${index + 1}`}
              onClick={() => onChange(messages.filter((_, i) => i !== index))}
              disabled={messages.length === 1}
            >
              <CloseIcon className="size-3.5" />
            </Button>
          </div>
          <Textarea
            look="code"
            aria-label={`Content of message ${index + 1}`}
            value={message.content}
            onChange={(e) => set(index, { content: e.target.value })}
            spellCheck={false}
            rows={Math.min(12, Math.max(3, message.content.split("\n").length + 1))}
          />
        </div>
      ))}
      <div>
        <Button size="sm" onClick={() => onChange([...messages, { role: "user", content: "" }])}>
          <PlusIcon className="size-3.5" />
          Add message
        </Button>
      </div>
    </div>
  );
}

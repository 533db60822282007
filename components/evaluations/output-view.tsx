"use client";

import { MessagesAsChat } from "@/components/traces/span-messages";
import { outputMessages } from "./output-messages";
import { outputText } from "./output-text";

/** A long value stays in its cell: it scrolls inside a capped height and breaks anywhere. */
export const clampBox = "max-h-64 overflow-auto whitespace-pre-wrap wrap-anywhere";

/** An output as the chat shows it (an agent's messages, tool calls included), else as text. */
export function OutputView({ output, label }: { output: unknown; label: string }) {
  if (output === undefined || output === null) return <span className="text-xs text-muted">No output</span>;
  const messages = outputMessages(output);
  if (messages && messages.length > 0)
    return (
      <div className="max-h-96 overflow-auto">
        <MessagesAsChat messages={messages} label={label} />
      </div>
    );
  return <div className={`${clampBox} text-sm`}>{outputText(output)}</div>;
}

/** A testcase's columns as name: value lines. */
export function InputsView({ inputs }: { inputs: unknown }) {
  if (!inputs || typeof inputs !== "object" || Array.isArray(inputs))
    return <div className={`${clampBox} font-mono text-xs`}>{JSON.stringify(inputs)}</div>;
  return (
    <dl className={`${clampBox} grid gap-1 text-xs`}>
      {Object.entries(inputs as Record<string, unknown>).map(([key, value]) => (
        <div key={key} className="min-w-0">
          <dt className="inline font-medium text-muted">{key}: </dt>
          <dd className="inline">{typeof value === "string" ? value : JSON.stringify(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

"use client";

import { generateId } from "ai";
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { Button } from "@/components/ui";
import { ChatTranscript } from "./chat-transcript";
import { useChatTargets, type TargetOption } from "./use-chat-targets";
import { usePlaygroundChat, type PlaygroundChat } from "./use-playground-chat";

/**
 * Side-by-side compare: one composer, each message sent to two targets at once (two revisions, or
 * a revision and what an environment runs), each answer streaming in its own column. Each side is
 * its own agent session; compare sessions are not kept in the session list.
 */
export function CompareView({
  agentId,
  variantId,
  revisionId,
}: {
  agentId: string;
  variantId: string;
  revisionId?: string;
}) {
  const options = useChatTargets(agentId, variantId, revisionId);
  const [left, setLeft] = useState(options[0].value);
  const [right, setRight] = useState<string | null>(null);
  // The second side defaults to the first other option once the revisions have loaded.
  const rightValue = right ?? options.find((o) => o.value !== left)?.value ?? options[0].value;
  const [round, setRound] = useState(() => generateId());
  const leftOption = options.find((o) => o.value === left) ?? options[0];
  const rightOption = options.find((o) => o.value === rightValue) ?? options[0];

  return (
    <div
      className="flex h-[calc(100vh-17rem)] min-h-[480px] flex-col overflow-hidden rounded-xl border border-line bg-surface"
      data-testid="compare-view"
    >
      <CompareBody
        key={`${round}:${leftOption.value}:${rightOption.value}`}
        options={options}
        sides={[leftOption, rightOption]}
        onChoose={(side, value) => (side === 0 ? setLeft(value) : setRight(value))}
        onReset={() => setRound(generateId())}
      />
    </div>
  );
}

function CompareBody({
  options,
  sides,
  onChoose,
  onReset,
}: {
  options: TargetOption[];
  sides: [TargetOption, TargetOption];
  onChoose: (side: 0 | 1, value: string) => void;
  onReset: () => void;
}) {
  const [ids] = useState(() => [generateId(), generateId()] as const);
  const a = usePlaygroundChat(ids[0], sides[0].target);
  const b = usePlaygroundChat(ids[1], sides[1].target);
  const [input, setInput] = useState("");
  const busy = [a, b].some((c) => c.status === "submitted" || c.status === "streaming");

  function send(event?: FormEvent) {
    event?.preventDefault();
    const text = input.trim();
    if (!text || busy) return;
    setInput("");
    void a.sendMessage({ text });
    void b.sendMessage({ text });
  }
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  }

  return (
    <>
      <div className="grid min-h-0 flex-1 grid-cols-1 divide-y divide-line md:grid-cols-2 md:divide-x md:divide-y-0">
        {([a, b] as const).map((chat, index) => (
          <CompareColumn
            key={index}
            side={index as 0 | 1}
            chat={chat}
            options={options}
            option={sides[index]}
            onChoose={onChoose}
          />
        ))}
      </div>
      <form onSubmit={send} className="border-t border-line p-3">
        <label htmlFor="compare-composer" className="sr-only">
          Message both
        </label>
        <textarea
          id="compare-composer"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={onKeyDown}
          rows={2}
          placeholder="One message, sent to both sides… (Enter sends)"
          className="w-full resize-none rounded-lg border border-line bg-surface px-3 py-2 text-sm focus:border-accent focus:outline-none"
        />
        <div className="mt-2 flex items-center justify-between gap-2">
          <Button size="sm" variant="ghost" onClick={onReset} disabled={a.messages.length + b.messages.length === 0}>
            New comparison
          </Button>
          <div className="flex gap-2">
            {busy && (
              <Button size="sm" variant="secondary" onClick={() => (void a.stop(), void b.stop())}>
                Stop
              </Button>
            )}
            <Button size="sm" variant="primary" type="submit" disabled={busy || !input.trim()}>
              Send to both
            </Button>
          </div>
        </div>
      </form>
    </>
  );
}

function CompareColumn({
  side,
  chat,
  options,
  option,
  onChoose,
}: {
  side: 0 | 1;
  chat: PlaygroundChat;
  options: TargetOption[];
  option: TargetOption;
  onChoose: (side: 0 | 1, value: string) => void;
}) {
  const label = side === 0 ? "Left side" : "Right side";
  return (
    <section aria-label={label} className="flex min-h-0 flex-col" data-testid="compare-side">
      <div className="border-b border-line px-3 py-2">
        <label htmlFor={`compare-target-${side}`} className="sr-only">
          {label} runs
        </label>
        <SelectInput
          id={`compare-target-${side}`}
          value={option.value}
          onChange={(e) => onChoose(side, e.target.value)}
          disabled={chat.messages.length > 0}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectInput>
      </div>
      <ChatTranscript chat={chat} />
    </section>
  );
}

"use client";

import { generateId } from "ai";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { ChatIcon } from "@/components/agents";
import { Button, Notice } from "@/components/ui";
import { chatErrorMessage } from "./chat-error";
import { ChatMessage } from "./chat-message";
import type { ChatTarget } from "./chat-target";
import { usePlaygroundChat } from "./use-playground-chat";

/**
 * A conversation with one target: the message list, the composer, stop, regenerate and a fresh
 * start. Used beside the editor (the draft) and on the chat page (a revision or environment).
 */
export function ChatPanel({ target, unavailable, emptyHint }: { target: ChatTarget | null; unavailable?: string; emptyHint: string }) {
  // A new id is a new agent session on the server.
  const [chatId, setChatId] = useState(() => generateId());
  return <Conversation key={chatId} chatId={chatId} target={target} unavailable={unavailable} emptyHint={emptyHint} onReset={() => setChatId(generateId())} />;
}

function Conversation({
  chatId,
  target,
  unavailable,
  emptyHint,
  onReset,
}: {
  chatId: string;
  target: ChatTarget | null;
  unavailable?: string;
  emptyHint: string;
  onReset: () => void;
}) {
  const chat = usePlaygroundChat(chatId, target);
  const [input, setInput] = useState("");
  const busy = chat.status === "submitted" || chat.status === "streaming";
  const scroller = useRef<HTMLDivElement>(null);
  const last = chat.messages.at(-1);

  useEffect(() => {
    scroller.current?.scrollTo({ top: scroller.current.scrollHeight });
  }, [chat.messages]);

  function send(event?: FormEvent) {
    event?.preventDefault();
    const text = input.trim();
    if (!text || busy || unavailable) return;
    setInput("");
    void chat.sendMessage({ text });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div ref={scroller} className="min-h-0 flex-1 space-y-4 overflow-y-auto px-4 py-4" aria-live="polite">
        {chat.messages.length === 0 ? (
          <div className="flex h-full flex-col items-center justify-center gap-2 text-center text-sm text-muted">
            <ChatIcon className="size-5" />
            <p>{unavailable ?? emptyHint}</p>
          </div>
        ) : (
          chat.messages.map((message) => (
            <ChatMessage
              key={message.id}
              message={message}
              turnEnded={!busy}
              onToolAnswer={(tool, toolCallId, output) => void chat.addToolOutput({ tool, toolCallId, output })}
            />
          ))
        )}
        {chat.status === "submitted" && <p className="text-xs text-muted">Waiting for the agent…</p>}
        {chat.error && (
          <Notice tone="danger" title="The turn failed">
            {chatErrorMessage(chat.error)}
          </Notice>
        )}
      </div>
      <form onSubmit={send} className="border-t border-line p-3">
        <label htmlFor={`composer-${chatId}`} className="sr-only">
          Message the agent
        </label>
        <textarea
          id={`composer-${chatId}`}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={onKeyDown}
          rows={2}
          placeholder={unavailable ? "Chat is unavailable" : "Message the agent… (Enter sends, Shift+Enter adds a line)"}
          disabled={Boolean(unavailable)}
          className="w-full resize-none rounded-lg border border-line bg-surface px-3 py-2 text-sm focus:border-accent focus:outline-none"
        />
        <div className="mt-2 flex items-center justify-between gap-2">
          <Button size="sm" variant="ghost" onClick={onReset} disabled={chat.messages.length === 0}>
            New chat
          </Button>
          <div className="flex gap-2">
            {busy ? (
              <Button size="sm" variant="secondary" onClick={() => void chat.stop()}>
                Stop
              </Button>
            ) : (
              last?.role === "assistant" && (
                <Button size="sm" variant="secondary" onClick={() => void chat.regenerate()} disabled={Boolean(unavailable)}>
                  Regenerate
                </Button>
              )
            )}
            <Button size="sm" variant="primary" type="submit" disabled={busy || !input.trim() || Boolean(unavailable)}>
              Send
            </Button>
          </div>
        </div>
      </form>
    </div>
  );
}

"use client";

import type { UIMessage } from "ai";
import { ChatMessage } from "@/components/chat/chat-message";
import { spanMessages, uiMessagesFromGenAi } from "@/shared/trace-messages";

const ignore = () => undefined;

/** Messages read back from a trace: the chat's own rendering, without anything to answer. */
export function MessagesAsChat({ messages, label }: { messages: UIMessage[]; label: string }) {
  return (
    <section
      aria-label={label}
      className="space-y-3 rounded-lg border border-line bg-surface-muted/40 p-3"
      data-testid="trace-messages"
    >
      {messages.map((message) => (
        <ChatMessage key={message.id} message={message} turnEnded={false} onToolAnswer={ignore} onApproval={ignore} />
      ))}
    </section>
  );
}

/** A model call's input and output messages as a chat; nothing when the run kept no content. */
export function SpanMessages({ attributes }: { attributes: Record<string, unknown> }) {
  const { input, output } = spanMessages(attributes);
  if (input.length === 0 && output.length === 0) return null;
  return (
    <>
      <h3 className="mt-4 text-xs font-medium tracking-wide text-muted uppercase">Messages</h3>
      <div className="mt-1">
        <MessagesAsChat messages={uiMessagesFromGenAi(input, output)} label="Messages of this model call" />
      </div>
    </>
  );
}

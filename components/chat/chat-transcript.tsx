"use client";

import Link from "next/link";
import { useEffect, useRef, type ReactNode } from "react";
import { AddToTestsetButton } from "@/components/testsets";
import { testcaseFromConversation } from "@/components/testsets/testcase-from-conversation";
import { tracePath } from "@/components/traces/trace-paths";
import { Notice } from "@/components/ui";
import { chatErrorMessage } from "./chat-error";
import { ChatMessage } from "./chat-message";
import type { PlaygroundChat } from "./use-playground-chat";

const rowsOfTurn = (messages: PlaygroundChat["messages"], index: number) => {
  const row = testcaseFromConversation(messages, index);
  return row ? [row] : [];
};

/**
 * A chat's messages, kept scrolled to the newest: tool answers and approvals go back through the
 * chat, then "waiting" while the turn is submitted and the error of a failed turn.
 */
export function ChatTranscript({ chat, empty }: { chat: PlaygroundChat; empty?: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const busy = chat.status === "submitted" || chat.status === "streaming";
  useEffect(() => {
    scroller.current?.scrollTo({ top: scroller.current.scrollHeight });
  }, [chat.messages]);
  return (
    <div ref={scroller} className="min-h-0 flex-1 space-y-4 overflow-y-auto px-4 py-4" aria-live="polite">
      {chat.messages.length === 0 && empty
        ? empty
        : chat.messages.map((message, index) => (
            <ChatMessage
              key={message.id}
              message={message}
              turnEnded={!busy}
              turnAction={
                message.role === "assistant" && !(busy && index === chat.messages.length - 1) ? (
                  <AddToTestsetButton variant="ghost" rows={() => rowsOfTurn(chat.messages, index)} />
                ) : undefined
              }
              onToolAnswer={(tool, toolCallId, output) => void chat.addToolOutput({ tool, toolCallId, output })}
              onApproval={(id, approved) => void chat.addToolApprovalResponse({ id, approved })}
            />
          ))}
      {chat.status === "submitted" && <p className="text-xs text-muted">Waiting for the agent…</p>}
      {chat.error && (
        <Notice tone="danger" title="The turn failed">
          {chatErrorMessage(chat.error)}
          {chat.traceId && (
            <>
              {" "}
              <Link href={tracePath(chat.traceId)} target="_blank" className="underline underline-offset-2">
                Open its trace ↗
              </Link>
            </>
          )}
        </Notice>
      )}
    </div>
  );
}

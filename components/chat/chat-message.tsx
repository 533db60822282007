"use client";

import { getToolName, isToolUIPart, type UIMessage } from "ai";
import Link from "next/link";
import type { ReactNode } from "react";
import { tracePath } from "@/components/traces/trace-paths";
import { ToolCallCard } from "./tool-call-card";
import { formatUsage, turnMetadata } from "./turn-usage";

/** One message: text, collapsible reasoning, tool calls as cards; an agent turn ends with its usage and trace. */
export function ChatMessage({
  message,
  turnEnded,
  onToolAnswer,
  onApproval,
  turnAction,
}: {
  message: UIMessage;
  /** Shown in an ended agent turn's footer (the chat's "Add to testset"). */
  turnAction?: ReactNode;
  /** The stream is over: a tool call still without output now waits for the person. */
  turnEnded: boolean;
  onToolAnswer: (tool: string, toolCallId: string, output: unknown) => void;
  onApproval: (approvalId: string, approved: boolean) => void;
}) {
  if (message.role === "user") {
    const text = message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
    return (
      <div className="flex justify-end" data-testid="user-message">
        <div className="max-w-[85%] min-w-0 rounded-2xl rounded-br-sm bg-accent px-3 py-2 text-sm whitespace-pre-wrap wrap-anywhere text-accent-foreground">
          {text}
        </div>
      </div>
    );
  }
  const meta = turnMetadata(message.metadata);
  return (
    <div className="min-w-0 space-y-2" data-testid="assistant-message">
      {message.parts.map((part, index) => {
        if (part.type === "text") {
          return (
            <p key={index} className="text-sm leading-relaxed whitespace-pre-wrap wrap-anywhere">
              {part.text}
            </p>
          );
        }
        if (part.type === "reasoning") {
          return (
            <details
              key={index}
              open={part.state === "streaming"}
              className="rounded-md border border-line bg-surface-muted/60 px-3 py-1.5 text-sm"
            >
              <summary className="cursor-pointer text-xs font-medium text-muted select-none">Reasoning</summary>
              <p className="mt-1 text-xs leading-relaxed whitespace-pre-wrap wrap-anywhere text-muted">{part.text}</p>
            </details>
          );
        }
        if (isToolUIPart(part)) {
          const name = getToolName(part);
          return (
            <ToolCallCard
              key={part.toolCallId}
              call={{
                toolCallId: part.toolCallId,
                name,
                state: part.state,
                input: part.input,
                output: "output" in part ? part.output : undefined,
                errorText: "errorText" in part ? part.errorText : undefined,
                approvalId: part.state === "approval-requested" ? part.approval.id : undefined,
                approved: part.state === "output-available" && part.approval?.approved === true,
              }}
              awaitingAnswer={turnEnded && part.state === "input-available"}
              onAnswer={(output) => onToolAnswer(name, part.toolCallId, output)}
              onDecide={onApproval}
            />
          );
        }
        return null;
      })}
      {(meta.usage || meta.traceId || turnAction) && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted" data-testid="turn-footer">
          {meta.usage && (
            <span title="Tokens in and out, and the cost when the model's price is known">
              {formatUsage(meta.usage)}
            </span>
          )}
          {meta.traceId && (
            <Link
              href={tracePath(meta.traceId)}
              target="_blank"
              className="underline-offset-2 hover:text-foreground hover:underline"
            >
              Trace <code className="font-mono">{meta.traceId.slice(0, 8)}</code> ↗
            </Link>
          )}
          {turnAction}
        </div>
      )}
    </div>
  );
}

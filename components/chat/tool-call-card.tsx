"use client";

import { useState, type FormEvent } from "react";
import { WrenchIcon } from "@/components/agents";
import { Badge, Button, cn, type BadgeTone } from "@/components/ui";

export interface ToolCallView {
  toolCallId: string;
  name: string;
  state: string;
  input: unknown;
  output: unknown;
  errorText?: string;
  /** Set while the call waits for a person's approval (`approval-requested`). */
  approvalId?: string;
  /** A person approved the call before it ran. */
  approved?: boolean;
}

const STATES: Record<string, { label: string; tone: BadgeTone }> = {
  "input-streaming": { label: "Preparing", tone: "neutral" },
  "input-available": { label: "Running", tone: "accent" },
  "output-available": { label: "Done", tone: "success" },
  "output-error": { label: "Failed", tone: "danger" },
  "approval-requested": { label: "Needs approval", tone: "warning" },
  "approval-responded": { label: "Answered", tone: "neutral" },
  "output-denied": { label: "Denied", tone: "danger" },
};

/**
 * One tool call with its input and output. A call still waiting when the turn has ended is a
 * client tool: the person answers it here, and the turn resumes with that answer. A call that
 * needs approval shows Approve and Deny; the decision resumes the turn.
 */
export function ToolCallCard({
  call,
  awaitingAnswer,
  onAnswer,
  onDecide,
}: {
  call: ToolCallView;
  awaitingAnswer: boolean;
  onAnswer: (output: unknown) => void;
  onDecide: (approvalId: string, approved: boolean) => void;
}) {
  const askingApproval = call.state === "approval-requested" && call.approvalId !== undefined;
  const state = awaitingAnswer
    ? { label: "Waiting for you", tone: "warning" as const }
    : (STATES[call.state] ?? { label: call.state, tone: "neutral" as const });
  return (
    <div
      className={cn("rounded-lg border bg-surface text-sm", askingApproval ? "border-warning" : "border-line")}
      data-testid="tool-call"
      data-state={call.state}
      role={askingApproval ? "group" : undefined}
      aria-label={askingApproval ? `Approve ${call.name}?` : undefined}
    >
      <div className="flex items-center justify-between gap-2 border-b border-line px-3 py-2">
        <span className="flex min-w-0 items-center gap-1.5 font-medium">
          <WrenchIcon className="size-3.5 shrink-0 text-muted" />
          <span className="truncate font-mono text-xs">{call.name}</span>
        </span>
        <Badge tone={state.tone} dot>
          {state.label}
        </Badge>
      </div>
      <div className="space-y-2 px-3 py-2">
        <Payload label="Input" value={call.input} />
        {call.approved && <p className="text-xs text-muted">Approved by a person before it ran.</p>}
        {call.state === "output-available" && <Payload label="Output" value={call.output} />}
        {call.state === "output-error" && <p className="text-xs text-danger">{call.errorText ?? "The tool failed."}</p>}
        {call.state === "output-denied" && (
          <p className="text-xs text-danger">Denied: the tool did not run, and the agent was told.</p>
        )}
        {awaitingAnswer && <ClientToolAnswer name={call.name} onAnswer={onAnswer} />}
        {askingApproval && (
          <ApprovalButtons name={call.name} onDecide={(approved) => onDecide(call.approvalId!, approved)} />
        )}
      </div>
    </div>
  );
}

function Payload({ label, value }: { label: string; value: unknown }) {
  if (value === undefined) return null;
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return (
    <div>
      <div className="text-[11px] font-medium tracking-wide text-muted uppercase">{label}</div>
      <pre className="mt-1 max-h-48 overflow-auto rounded-md bg-surface-muted px-2 py-1.5 font-mono text-xs whitespace-pre-wrap break-words">
        {text}
      </pre>
    </div>
  );
}

/** The answer is sent as JSON when it parses as JSON, else as the text typed. */
function ClientToolAnswer({ name, onAnswer }: { name: string; onAnswer: (output: unknown) => void }) {
  const [text, setText] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    let output: unknown = trimmed;
    try {
      output = JSON.parse(trimmed);
    } catch {
      // plain text answer
    }
    onAnswer(output);
  }
  return (
    <form onSubmit={submit} className="flex gap-2">
      <label className="sr-only" htmlFor={`answer-${name}`}>
        Answer for {name}
      </label>
      <input
        id={`answer-${name}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Answer as text or JSON"
        className="h-8 min-w-0 flex-1 rounded-md border border-line bg-surface px-2 text-sm"
      />
      <Button type="submit" size="sm" variant="primary" disabled={!text.trim()}>
        Send answer
      </Button>
    </form>
  );
}

/** Native buttons: reachable with Tab, pressed with Enter or Space, with the shared focus ring. */
function ApprovalButtons({ name, onDecide }: { name: string; onDecide: (approved: boolean) => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 pt-1">
      <p className="text-xs text-muted">
        The agent wants to run <span className="font-mono">{name}</span> with this input.
      </p>
      <div className="flex gap-2">
        <Button size="sm" variant="secondary" onClick={() => onDecide(false)}>
          Deny
        </Button>
        <Button size="sm" variant="primary" onClick={() => onDecide(true)}>
          Approve
        </Button>
      </div>
    </div>
  );
}

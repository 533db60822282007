import { attributeAt, spanMessages, type GenAiMessage } from "@/shared/trace-messages";

/** Ended normally, paused for a person (approval or client tool), or failed as a whole. */
export type TraceOutcome = "ok" | "paused" | "error";

export interface TraceRowSummary {
  outcome: TraceOutcome;
  /** Spans that failed inside a run that did not (a tool's error the model went on from). */
  failedSteps: number;
  input?: string;
  output?: string;
  model?: string;
  sessionId?: string;
}

type WireSpan = Record<string, unknown> & { spans?: Record<string, WireSpan | WireSpan[]> };

const PAUSED = new Set(["paused", "permission_required"]);
const PREVIEW = 160;

function descendants(span: WireSpan): WireSpan[] {
  const kids = Object.values(span.spans ?? {}).flatMap((v) => (Array.isArray(v) ? v : [v]));
  return kids.flatMap((kid) => [kid, ...descendants(kid)]);
}

const textOf = (messages: GenAiMessage[], role: string) =>
  messages
    .filter((m) => m.role === role)
    .at(-1)
    ?.parts.flatMap((p) => (p.type === "text" && typeof p.content === "string" ? [p.content] : []))
    .join(" ");

function preview(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const text = (typeof value === "string" ? value : JSON.stringify(value)).replace(/\s+/g, " ").trim();
  return text.length > PREVIEW ? `${text.slice(0, PREVIEW - 1)}…` : text || undefined;
}

/**
 * What tells one trace from another in the list: what went in and came out (the run's last user
 * message and final reply, else the root span's inputs and outputs), model, session, and the
 * outcome. The outcome is the last run's (the root, or the turn that continued it after a person
 * answered): a turn paused for a person is not "OK", and a tool that failed inside a run that went
 * on is counted apart, not a failed run.
 */
export function traceRowSummary(trace: { spans: Record<string, WireSpan | WireSpan[]> }): TraceRowSummary {
  const roots = Object.values(trace.spans ?? {}).flatMap((v) => (Array.isArray(v) ? v : [v]));
  const root = roots[0];
  if (!root) return { outcome: "ok", failedSteps: 0 };
  const all = descendants(root);
  // A turn answered after a pause continues the paused run's trace as its child: the trace ended
  // as the last run of that chain did, not as its paused first half.
  const last = [root, ...all.filter((span) => attributeAt(span.attributes, "ag.meta.run.continues_run_id"))].reduce(
    (latest, span) => (String(span.start_time ?? "") > String(latest.start_time ?? "") ? span : latest),
  );
  const runFailed = last.status_code === "STATUS_CODE_ERROR";
  const stopReason = attributeAt(last.attributes, "ag.meta.run.stop_reason");
  const chats = all.filter(
    (span) => attributeAt(span.attributes, "gen_ai.operation.name") === "chat" || span.span_type === "chat",
  );
  const input = chats.map((span) => spanMessages(span.attributes).input).find((m) => m.length > 0) ?? [];
  const output =
    chats
      .map((span) => spanMessages(span.attributes).output)
      .filter((m) => m.length > 0)
      .at(-1) ?? [];
  const model =
    attributeAt(root.attributes, "ag.meta.request.model") ??
    chats.map((span) => attributeAt(span.attributes, "ag.meta.request.model")).find(Boolean);
  return {
    outcome: runFailed ? "error" : typeof stopReason === "string" && PAUSED.has(stopReason) ? "paused" : "ok",
    failedSteps: runFailed ? 0 : all.filter((span) => span.status_code === "STATUS_CODE_ERROR").length,
    input: preview(textOf(input, "user") || attributeAt(root.attributes, "ag.data.inputs")),
    output: preview(textOf(output, "assistant") || attributeAt(root.attributes, "ag.data.outputs")),
    model: typeof model === "string" ? model : undefined,
    sessionId: typeof root.session_id === "string" ? root.session_id : undefined,
  };
}

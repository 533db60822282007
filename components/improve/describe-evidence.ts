import type { Strategy, TriageEvidence } from "./types";

const short = (id: string) => id.slice(0, 8);

/** What a triage examined, in words, for its list row and page (the evidence as it was sent). */
export function describeEvidence(sent: Record<string, unknown>): string {
  const evidence = sent as TriageEvidence;
  switch (evidence.kind) {
    case "traces": {
      const window =
        evidence.oldest && evidence.newest
          ? ` from ${new Date(evidence.oldest).toLocaleString("en")} to ${new Date(evidence.newest).toLocaleString("en")}`
          : evidence.oldest
            ? ` since ${new Date(evidence.oldest).toLocaleString("en")}`
            : "";
      return `Traces${window}`;
    }
    case "monitor_alert":
      return evidence.alert_id
        ? `Alert ${short(evidence.alert_id)} of monitor ${short(evidence.monitor_id)}`
        : `Latest alert of monitor ${short(evidence.monitor_id)}`;
    case "evaluation_run":
      return `Evaluation ${short(evidence.run_id)}${evidence.below !== undefined ? `, scores below ${evidence.below}` : ""}`;
    case "annotations":
      return evidence.queue_id ? `Review annotations of queue ${short(evidence.queue_id)}` : "Review annotations";
    default:
      return "Failures";
  }
}

export const STRATEGY_LABELS: Record<Strategy, string> = {
  reflective: "Reflective rewrite",
  few_shot: "Few-shot examples",
  parameter_sweep: "Model and parameter sweep",
};

export const strategyLabel = (s: string) => STRATEGY_LABELS[s as Strategy] ?? s;

/** Where an optimization stands, in a few words, for its list row. */
export function describeOptimizationState(o: {
  status: string;
  rounds: number;
  progress?: { round?: number; rounds?: number };
}): string {
  if (o.status === "queued") return "Waiting for a worker";
  const round = o.progress?.round;
  if (o.status === "running")
    return round ? `Round ${round} of ${o.progress?.rounds ?? o.rounds}` : "Splitting the testset";
  return "";
}

/** A value of an example (an input, an output) on one line: a chat's last message, else short JSON. */
export function previewValue(value: unknown, max = 240): string {
  if (value === undefined || value === null) return "—";
  let text: string;
  if (typeof value === "string") text = value;
  else {
    const messages = (value as { messages?: unknown }).messages;
    const last = Array.isArray(messages) ? (messages.at(-1) as { content?: unknown } | undefined) : undefined;
    text = last && typeof last.content === "string" ? last.content : (JSON.stringify(value) ?? String(value));
  }
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

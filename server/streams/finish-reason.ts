/** the interface contract's finishReason set. */
export type ContractFinishReason = "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other" | "unknown";

const PASS_THROUGH = new Set<string>(["stop", "length", "content-filter", "tool-calls", "error", "other", "unknown"]);

const RAW_TO_FINISH: Record<string, ContractFinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  tool_use: "tool-calls",
  tool_calls: "tool-calls",
  function_call: "tool-calls",
  refusal: "content-filter",
  content_filter: "content-filter",
  paused: "other",
  cancelled: "other",
};

/** the interface contract "finishReason mapping from the raw stop reason". */
export function toFinishReason(stopReason: string | undefined): ContractFinishReason {
  if (stopReason === undefined) return "unknown";
  if (PASS_THROUGH.has(stopReason)) return stopReason as ContractFinishReason;
  return RAW_TO_FINISH[stopReason] ?? "unknown";
}

/**
 * The installed `ai` v6 schema has no `unknown` finishReason (the SDK itself folds it into
 * `other`), so the UI projection sends `other` where the contract says `unknown`; the raw stop
 * reason stays on the native `done` frame and the batch `stop_reason`.
 */
export function toUiFinishReason(stopReason: string | undefined): Exclude<ContractFinishReason, "unknown"> {
  const reason = toFinishReason(stopReason);
  return reason === "unknown" ? "other" : reason;
}

import { Output } from "ai";
import { z } from "zod";
import { resolveModelName, tracedModelCall, type ResolvedConnection } from "@/server/agent-runs";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError, isAppError, type ErrorCodeOf } from "@/server/core/errors";
import type { Group } from "./groups";
import type { TriageItem } from "./wire";

/** Failures shown to the model per call: a thousand traces take nine calls. */
export const BATCH_SIZE = 120;
/** Each input, output and feedback is cut to this many characters in the prompt. */
const FIELD_CHARS = 600;
const CALL_TIMEOUT_MS = 180_000;

/** What the model answers: the named modes of this batch and which failures (by index) each holds. */
export const batchGroupingSchema = z.object({
  modes: z.array(
    z.object({
      name: z.string().min(1).max(120).describe("A short name of the failure mode, e.g. 'Ignores the refund policy'"),
      description: z.string().min(1).max(400).describe("One line: what goes wrong"),
      failures: z.array(z.number().int()).describe("The indexes of the failures of this mode"),
    }),
  ),
});

/**
 * The project's credential for `provider/model` (or a bare model a catalog or stored provider
 * knows): the evaluations' LLM judge's mechanism (`resolveModel`), so triage reaches exactly what
 * an agent of the project would. An unknown provider or a missing connection is the runner's own
 * 4xx (`missing_connection`).
 */
export async function resolveTriageModel(
  app: AppContext,
  projectId: string,
  model: string,
): Promise<ResolvedConnection> {
  try {
    return await resolveModelName(app, projectId, model);
  } catch (error) {
    // The runner speaks of `llm.provider`; the caller wrote `model`.
    if (isAppError(error) && error.status === 400)
      throw new BadRequestError(`model "${model}": ${error.message}`, error.code as ErrorCodeOf<400>);
    throw error;
  }
}

const SYSTEM = [
  "You triage failures of an LLM agent. Group the failures below into a few named failure modes:",
  "what went wrong, in the words a person fixing the agent would use (e.g. 'Answers refunds without the refund policy').",
  "Put every failure in exactly one mode, by its index. When a failure fits a mode already known, use that mode's name exactly.",
  "Give each mode a one-line description.",
].join(" ");

const cut = (value: unknown): string => {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
  return text.length > FIELD_CHARS ? `${text.slice(0, FIELD_CHARS)}…` : text;
};

/** The prompt of one batch: the modes known so far, then each failure with its index. Pure. */
export function batchPrompt(items: TriageItem[], offset: number, known: Group[]): string {
  const knownText = known.length
    ? `Failure modes known so far:\n${known.map((g) => `- ${g.name}: ${g.description}`).join("\n")}\n\n`
    : "";
  const failures = items.map((item, i) => {
    const facts = [
      `input: ${cut(item.input)}`,
      `output: ${cut(item.output)}`,
      ...(item.feedback ? [`feedback: ${cut(item.feedback)}`] : []),
      ...(item.expected !== undefined ? [`expected: ${cut(item.expected)}`] : []),
      ...(item.error_class ? [`error class: ${item.error_class}`] : []),
      ...(item.tool ? [`failed tool: ${item.tool}`] : []),
      ...(item.stop_reason ? [`stop reason: ${item.stop_reason}`] : []),
    ];
    return `[${offset + i}]\n${facts.join("\n")}`;
  });
  return `${knownText}Failures:\n\n${failures.join("\n\n")}`;
}

export interface BatchResult {
  groups: Group[];
  costUsd: number;
}

/**
 * One batch through the model with structured output (the AI SDK's `Output.object`, validated by
 * `batchGroupingSchema`), by `tracedModelCall`: under the project's controls, priced and recorded
 * as a trace of the same shape as a prompt application's call. Indexes outside the batch are
 * dropped.
 */
export async function groupBatch(
  app: AppContext,
  projectId: string,
  connection: ResolvedConnection,
  batch: { items: TriageItem[]; offset: number; known: Group[]; triageId: string },
): Promise<BatchResult> {
  const prompt = batchPrompt(batch.items, batch.offset, batch.known);
  const call = await tracedModelCall(app, {
    projectId,
    connection,
    agent: { name: "improve triage", references: {} },
    harness: "triage",
    messages: [{ role: "user", content: prompt }],
    sessionId: `triage-${batch.triageId}`,
    request: {
      system: SYSTEM,
      prompt,
      output: Output.object({ schema: batchGroupingSchema }),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    },
    describeFailure: (error) => modelFailure(error, connection),
  });
  if (call.failure) throw new ModelGroupingError(call.failure);
  const size = batch.items.length;
  return {
    costUsd: call.costUsd ?? 0,
    groups: call.output!.modes.map((mode) => ({
      name: mode.name,
      description: mode.description,
      items: [...new Set(mode.failures)].filter((i) => i >= batch.offset && i < batch.offset + size),
    })),
  };
}

/** A model call that failed; the triage fails with this message (provider bodies are never quoted). */
export class ModelGroupingError extends Error {}

function modelFailure(error: unknown, connection: ResolvedConnection): string {
  const who = `${connection.provider} model "${connection.model}" (${connection.label})`;
  const status = (error as { statusCode?: number }).statusCode;
  if (status) return `the ${who} refused the grouping call with HTTP ${status}`;
  const name = error instanceof Error ? error.name : "";
  if (name === "AI_NoObjectGeneratedError")
    return `the ${who} did not answer with the grouping schema (modes with name, description and failures)`;
  if (name === "TimeoutError" || name === "AbortError")
    return `the ${who} did not answer within ${CALL_TIMEOUT_MS / 1000} s`;
  return `the ${who} could not be reached: ${error instanceof Error ? error.message : String(error)}`;
}

import type { AppContext } from "@/server/core/app-context";

/** One evaluator step on one cell: what the engine hands to an evaluator. */
export interface EvaluatorRequest {
  /** The evaluator revision's `data.uri`, e.g. "agenta:builtin:auto_exact_match:v0" or
   *  "svc:builtin:auto_exact_match:v0", "svc:custom:code:v0", "svc:custom:hook:v0",
   *  "svc:custom:mock:v0", "svc:builtin:trajectory_match:v0" (our own). Unknown URIs fail. */
  uri: string;
  /** The evaluator revision's whole `data` (parameters, script, runtime, url, headers, ...). */
  data: Record<string, unknown>;
  /** The testcase's columns (for multi-turn testcases, `messages` etc. as stored). */
  inputs: Record<string, unknown>;
  /** What the application returned: a string, an object, or (agents) the list of output
   *  messages in the service's native message shape. */
  outputs: unknown;
  /** The invocation's trace, when the cell has one: used by the judge render context and by the
   *  trajectory evaluator (tool calls in order). `toolCalls` is extracted by the engine from the
   *  agent run: [{ name, input, output?, error? }] in call order. */
  trace?: {
    trace_id: string;
    spans?: unknown[];
    toolCalls?: { name: string; input: unknown; output?: unknown; isError?: boolean }[];
  };
}

export interface EvaluatorContext {
  app: AppContext;
  projectId: string;
  /** Aborted when the run is stopped or its time budget ends: in-flight work must stop. */
  signal: AbortSignal;
  /** Time limit of one external call (a judge or embedding model, a webhook), in ms; each
   *  evaluator has its own default (models 120 s, webhooks 10 s, hooks 30 s). */
  timeoutMs?: number;
  /**
   * What a model call the evaluator makes is traced as: the trace's name and the references that
   * link it to the cell it scores (the evaluation run, the evaluator revision). A trial on a form
   * has no cell: the call is traced under the evaluator's own name.
   */
  traceAs?: { name: string; references: Record<string, { id: string; slug?: string | null; version?: string | null }> };
}

export interface EvaluatorUsage {
  promptTokens?: number;
  completionTokens?: number;
  costUsd?: number;
}

export type EvaluatorOutcome =
  | { status: "success"; outputs: Record<string, unknown>; usage?: EvaluatorUsage }
  /** `retryable` marks provider rate limits / 5xx / timeouts, which the engine retries with backoff. */
  | { status: "failure"; error: { code: string; message: string; retryable?: boolean } };

/** What a handler gets: the request, the context, and the revision's `data.parameters`. */
export interface EvaluatorCall {
  ctx: EvaluatorContext;
  request: EvaluatorRequest;
  parameters: Record<string, unknown>;
}

/** A handler returns its outputs (and usage when it called a model) or throws an EvaluatorFailure. */
export interface EvaluatorResult {
  outputs: Record<string, unknown>;
  usage?: EvaluatorUsage;
}

export type EvaluatorHandler = (call: EvaluatorCall) => EvaluatorResult | Promise<EvaluatorResult>;

import { cancelled } from "./abortable-sleep";
import { EvaluatorFailure } from "./evaluator-failure";
import { BUILTIN_EVALUATORS, CUSTOM_EVALUATORS, IN_PROCESS_BUILTINS } from "./evaluator-registry";
import type { EvaluatorContext, EvaluatorHandler, EvaluatorOutcome, EvaluatorRequest } from "./evaluator-types";
import { parseEvaluatorUri } from "./evaluator-uri";
import { isRecord } from "./evaluator-values";

/** A cell's outputs are scores and short notes; more is a mistake that would bloat every query. */
const MAX_OUTPUTS_BYTES = 256 * 1024;

function handlerFor(uri: string): EvaluatorHandler | undefined {
  const parsed = parseEvaluatorUri(uri);
  if (!parsed) return undefined;
  const table = parsed.family === "builtin" ? BUILTIN_EVALUATORS : CUSTOM_EVALUATORS;
  return Object.hasOwn(table, parsed.key) ? table[parsed.key] : undefined;
}

/** Whether a URI names an evaluator this service can run (the engine refuses others at start). */
export function isRunnableEvaluatorUri(uri: string): boolean {
  return handlerFor(uri) !== undefined;
}

/** Whether a URI names a built-in that computes in this process, with no I/O (IN_PROCESS_BUILTINS). */
export function runsInProcess(uri: string): boolean {
  const parsed = parseEvaluatorUri(uri);
  return parsed?.family === "builtin" && IN_PROCESS_BUILTINS.has(parsed.key);
}

function unknownUriMessage(uri: string): string {
  const parsed = parseEvaluatorUri(uri);
  if (parsed?.family === "custom" && parsed.key === "feedback") {
    return `${uri} is a human feedback evaluator: its values come from annotations, it cannot be run; use it in a queue, or pick an automatic evaluator`;
  }
  const known = [
    ...Object.keys(BUILTIN_EVALUATORS).map((k) => `svc:builtin:${k}:v0`),
    ...Object.keys(CUSTOM_EVALUATORS).map((k) => `svc:custom:${k}:v0`),
  ];
  return `data.uri "${uri}" names no evaluator this service can run; known: ${known.join(", ")}`;
}

/** Rejects when the signal aborts, so a handler that does not listen still stops the cell. */
function abortion(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let onAbort = () => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(cancelled());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  promise.catch(() => undefined);
  return { promise, dispose: () => signal.removeEventListener("abort", onAbort) };
}

/**
 * Runs one evaluator. Never throws for a bad evaluator, bad parameters or a bad output: it
 * returns a failure with a message a person can act on.
 */
export async function runEvaluator(ctx: EvaluatorContext, request: EvaluatorRequest): Promise<EvaluatorOutcome> {
  const handler = handlerFor(request.uri);
  if (!handler)
    return { status: "failure", error: { code: "unknown_evaluator", message: unknownUriMessage(request.uri) } };
  if (ctx.signal.aborted) return failureOf(cancelled());
  const parameters = request.data?.parameters ?? {};
  if (!isRecord(parameters)) {
    return {
      status: "failure",
      error: {
        code: "invalid_parameters",
        message: `data.parameters must be an object; got ${JSON.stringify(parameters)}`,
      },
    };
  }
  const stop = abortion(ctx.signal);
  try {
    const result = await Promise.race([
      Promise.resolve().then(() => handler({ ctx, request, parameters })),
      stop.promise,
    ]);
    const size = Buffer.byteLength(JSON.stringify(result.outputs) ?? "");
    if (size > MAX_OUTPUTS_BYTES) {
      return {
        status: "failure",
        error: {
          code: "outputs_too_large",
          message: `the evaluator returned ${size} bytes of outputs, over the ${MAX_OUTPUTS_BYTES}-byte cap; return scores and short notes`,
        },
      };
    }
    return { status: "success", outputs: result.outputs, ...(result.usage ? { usage: result.usage } : {}) };
  } catch (error) {
    return failureOf(ctx.signal.aborted && !(error instanceof EvaluatorFailure) ? cancelled() : error);
  } finally {
    stop.dispose();
  }
}

function failureOf(error: unknown): EvaluatorOutcome {
  if (error instanceof EvaluatorFailure) {
    return {
      status: "failure",
      error: { code: error.code, message: error.message, ...(error.retryable ? { retryable: true } : {}) },
    };
  }
  // A bug in a handler: still a cell with a reason, never a thrown exception in the engine.
  return {
    status: "failure",
    error: {
      code: "evaluator_error",
      message: `the evaluator failed: ${error instanceof Error ? error.message : String(error)}`,
    },
  };
}

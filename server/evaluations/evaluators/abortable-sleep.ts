import { EvaluatorFailure } from "./evaluator-failure";

/** Waits `ms`, or rejects as soon as the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(cancelled());
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export const cancelled = () =>
  new EvaluatorFailure("cancelled", "the evaluation was stopped before this evaluator finished");

/**
 * One external call (a model, a webhook) under the run's signal plus a time limit of its own.
 * The call gets the combined signal; its promise is also raced against it, so a client library
 * that misses an abort cannot hold the cell. `timedOut()` tells a timeout (retryable) from a stop.
 */
export async function withCallLimit<T>(
  runSignal: AbortSignal,
  timeoutMs: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([runSignal, timeout]);
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new CallAborted(timeout.aborted && !runSignal.aborted));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([call(signal), aborted]);
  } catch (error) {
    throw signal.aborted && !(error instanceof CallAborted)
      ? new CallAborted(timeout.aborted && !runSignal.aborted)
      : error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** The call was cut short: by its time limit (`timedOut`) or by the run's stop. */
export class CallAborted extends Error {
  constructor(readonly timedOut: boolean) {
    super(timedOut ? "the call timed out" : "the call was stopped");
  }
}

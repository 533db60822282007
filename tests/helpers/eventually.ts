/**
 * The one polling wait the tests keep, for what nothing in the test's process is told about: the
 * state of another PostgreSQL backend (a lock a request waits on, a backend that is gone), a file
 * another process removes, a thread count. Everything else is awaited: a worker's pass run or its
 * `idle()`, a run's end (`after-runs.ts`), a notification (`NotifiedCache.when`), a request to a
 * test server (`requestsReceived`, the webhook receiver), the clock moved (`advanceClock`).
 *
 * Checks `probe` every `intervalMs` until it returns something other than `undefined` or `false`,
 * and returns that; past `ms` it fails naming `what` and the probe's last error, if any.
 */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  { ms = 10_000, intervalMs = 20 }: { ms?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = performance.now() + ms;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (performance.now() > deadline)
      throw new Error(`${what}: not within ${ms} ms${lastError ? ` (last: ${String(lastError)})` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * The one polling wait the tests keep, for what PostgreSQL shows no one as it happens: a backend
 * waiting on a lock (`pg_stat_activity`), row counts it publishes on its own timer
 * (`pg_stat_user_tables`), rows a worker process writes. Everything else is awaited: a worker's pass or its `idle()`, a run's
 * end (`after-runs.ts`), a notification (`NotifiedCache.when`, a marker notified after the
 * changes), a request to a test server, a child process's exit, a worker thread's `exit`, a row
 * lock taken after the transactions holding it end, the clock moved (`advanceClock`).
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

/**
 * Bounds a wait on a server or the database, so a stall fails with what stalled (and, given
 * `explain`, what the system was doing) instead of hanging until the test's time-out.
 */
export async function within<T>(
  ms: number,
  what: string,
  promise: Promise<T>,
  explain?: () => Promise<string>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<"stalled">((resolve) => (timer = setTimeout(() => resolve("stalled"), ms)));
  try {
    const result = await Promise.race([promise, stalled]);
    if (result !== "stalled") return result;
    throw new Error(`${what}: no answer in ${ms} ms${explain ? `; ${await explain()}` : ""}`);
  } finally {
    clearTimeout(timer);
  }
}

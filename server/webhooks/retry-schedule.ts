/**
 * When the next attempt is due after `attemptsMade` attempts, or undefined when the schedule is
 * exhausted. `schedule[i]` is the delay before attempt i + 1 (Svix's: 0, 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h, 10 h). Delays get ±10% jitter so endpoints that failed together are not retried in
 * lockstep.
 */
export function nextAttemptAt(
  schedule: number[],
  attemptsMade: number,
  now: Date,
  random = Math.random,
): Date | undefined {
  if (attemptsMade >= schedule.length) return undefined;
  const delay = schedule[attemptsMade];
  const jittered = delay * (0.9 + 0.2 * random());
  return new Date(now.getTime() + Math.round(jittered));
}

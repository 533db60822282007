import { z } from "zod";

export const workersEnv = {
  WORKERS: z.enum(["in-process", "after-response", "off"]).optional(),
  WORK_AFTER_RESPONSE_MS: z.coerce.number().int().positive().default(10_000),
};

/** Where the background workers run. */
export interface WorkersConfig {
  /**
   * Whether the app process runs the background workers itself: `in-process` loops,
   * `after-response` (serverless) a bounded drain after each answer that may have queued work,
   * `off` neither (separate `npm run worker` processes, or only the cron route).
   */
  workers: "in-process" | "after-response" | "off";
  /** `after-response`: how long a drain may keep starting work after an answer (below the function's time limit). */
  workAfterResponseMs: number;
}

export function workersConfig(c: z.output<z.ZodObject<typeof workersEnv>> & { VERCEL?: string }): WorkersConfig {
  return {
    // A serverless host freezes the process between requests: the work an answer queued is done
    // right after it, and the cron route picks up the rest.
    workers: c.WORKERS ?? (c.VERCEL ? "after-response" : "in-process"),
    workAfterResponseMs: c.WORK_AFTER_RESPONSE_MS,
  };
}

import { z } from "zod";

export const automationsEnv = {
  TRIGGER_TEST_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
};

/** Automations and the reference implementation's `/api/triggers`. */
export interface AutomationsConfig {
  /** How long `POST /api/triggers/subscriptions/test` waits for its first delivery (the reference's 300 s). */
  triggerTestTimeoutMs: number;
}

export function automationsConfig(c: z.output<z.ZodObject<typeof automationsEnv>>): AutomationsConfig {
  return { triggerTestTimeoutMs: c.TRIGGER_TEST_TIMEOUT_MS };
}

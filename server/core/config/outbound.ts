import { z } from "zod";
import { parseAllowlist, type AllowlistEntry } from "@/server/egress/allowlist";
import { parseDurationList } from "../durations";
import { parseSecretKey } from "../secret-key";
import { invalid } from "./parse";

/** Svix's schedule: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (in ms). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

export const outboundEnv = {
  APP_SECRET_KEY: z
    .string()
    .transform(
      (value, ctx) => parseSecretKey(value) ?? invalid(ctx, "APP_SECRET_KEY must be 32 bytes, base64 or hex encoded"),
    )
    .optional(),
  EGRESS_ALLOWLIST: z
    .string()
    .transform((value, ctx) => {
      const parsed = parseAllowlist(value);
      return "error" in parsed ? invalid(ctx, parsed.error) : parsed.entries;
    })
    .optional(),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().max(120_000).default(10_000),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .transform(
      (value, ctx) =>
        parseDurationList(value) ??
        invalid(ctx, "WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of durations such as 0,5s,5m,30m,2h"),
    )
    .optional(),
  WEBHOOK_DISABLE_AFTER: z
    .string()
    .transform(
      (value, ctx) =>
        parseDurationList(value)?.[0] ?? invalid(ctx, "WEBHOOK_DISABLE_AFTER must be a duration such as 5d or 12h"),
    )
    .optional(),
};

/** Secrets at rest, and what leaves the server: the egress guard's exceptions and webhook deliveries. */
export interface OutboundConfig {
  /** 32-byte key that seals secrets at rest; absent: a key file under dataDir (server/encryption). */
  secretKey?: Buffer;
  /** Hosts, IPs and CIDRs that user-supplied URLs may reach although they are private (server/egress). */
  egressAllowlist: AllowlistEntry[];
  /**
   * Extra CA certificates (PEM) trusted for egress. Not read from the environment (deployments
   * use NODE_EXTRA_CA_CERTS); tests that run an HTTPS receiver in-process set it.
   */
  egressCa?: string[];
  webhookTimeoutMs: number;
  /** Delay before each attempt of a delivery, in ms; its length is the number of attempts. */
  webhookRetryScheduleMs: number[];
  /** A subscription whose deliveries have all failed for this long is stopped. */
  webhookDisableAfterMs: number;
}

export function outboundConfig(c: z.output<z.ZodObject<typeof outboundEnv>>): OutboundConfig {
  return {
    secretKey: c.APP_SECRET_KEY,
    egressAllowlist: c.EGRESS_ALLOWLIST ?? [],
    webhookTimeoutMs: c.WEBHOOK_TIMEOUT_MS,
    webhookRetryScheduleMs: c.WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS,
    webhookDisableAfterMs: c.WEBHOOK_DISABLE_AFTER ?? 5 * 24 * 3_600_000,
  };
}

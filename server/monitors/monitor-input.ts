import { z } from "zod";
import { METRIC_NAMES, type MetricName } from "@/shared/monitor-metrics";

export { METRIC_NAMES, type MetricName };

/** The scopes a monitor narrows its metric to: the project, or one value of a roll-up dimension. */
export const SCOPE_KINDS = ["project", "agent", "environment", "revision", "model", "api_key"] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];

export const MIN_WINDOW_SECONDS = 300;
export const MAX_WINDOW_SECONDS = 7 * 86_400;

export const metricSchema = z.strictObject({
  name: z.enum(METRIC_NAMES),
  focus: z.enum(["run", "span"]).optional().describe("run (default): root spans of runs; span: every span"),
  usage_kind: z.string().min(1).max(64).optional().describe("tokens and cost: which usage kind to sum (default total)"),
  budget_id: z.uuid().optional().describe("budget_use: the budget whose current window's use (percent) is watched"),
  evaluator: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "score_mean, score_pass_rate: the evaluator (its id) whose results in live evaluations are watched; required there",
    ),
});
export type MetricInput = z.infer<typeof metricSchema>;

export const scopeSchema = z.strictObject({
  kind: z.enum(SCOPE_KINDS),
  value: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe("The agent id, environment slug, revision id, model or API key id"),
});
export type ScopeInput = z.infer<typeof scopeSchema>;

const https = z.string().max(2083);

export const channelInputSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("slack"),
    url: https.describe("A Slack incoming webhook URL (kept sealed, never shown again)"),
  }),
  z.strictObject({
    kind: z.literal("teams"),
    url: https.describe("A Microsoft Teams incoming webhook (Workflows) URL (kept sealed, never shown again)"),
  }),
  z.strictObject({
    kind: z.literal("github"),
    repository: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "owner/name")
      .max(200),
    token: z.string().min(1).max(500).describe("A token that may create repository_dispatch events (kept sealed)"),
    event_type: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("The repository_dispatch event_type (default monitor-alert)"),
    api_url: https
      .optional()
      .describe("GitHub's API root (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3)"),
  }),
]);
export type ChannelInput = z.infer<typeof channelInputSchema>;

export const monitorInputSchema = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  metric: metricSchema,
  scope: scopeSchema.optional().describe("Default: the whole project"),
  window_seconds: z
    .int()
    .min(MIN_WINDOW_SECONDS)
    .max(MAX_WINDOW_SECONDS)
    .describe("The rolling window, 300 s (5 minutes) to 604800 s (7 days)"),
  operator: z.enum(["above", "below"]),
  threshold: z.number(),
  recovery_threshold: z
    .number()
    .optional()
    .describe(
      "An alerting monitor resolves once the value is back past this (hysteresis). Default: 10% of the threshold back",
    ),
  min_samples: z
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe(
      "Runs (or spans; for score metrics, scored results) the window needs before the monitor can fire; fewer is no_data. Default 1",
    ),
  renotify_seconds: z
    .int()
    .min(300)
    .max(MAX_WINDOW_SECONDS)
    .optional()
    .describe("While alerting, notify again at most this often; default: once per alert"),
  channels: z.array(channelInputSchema).max(10).optional(),
  muted_until: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type MonitorInput = z.infer<typeof monitorInputSchema>;

export const muteInputSchema = z.strictObject({
  until: z.iso.datetime({ offset: true }).nullable().describe("Silent until this time; null unmutes"),
});

/** Default hysteresis: an alert resolves once the value is 10% of the threshold back on the good side. */
export function defaultRecovery(operator: "above" | "below", threshold: number): number {
  const margin = Math.abs(threshold) * 0.1;
  return operator === "above" ? threshold - margin : threshold + margin;
}

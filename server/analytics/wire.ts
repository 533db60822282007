import { z } from "zod";
import { analyticsGroupSchema, BUCKET_UNITS } from "./query-request";

const amounts = z.record(z.string(), z.number());
const percentiles = { mean: z.number(), p50: z.number(), p90: z.number(), p99: z.number() };

export const metricsWire = z.strictObject({
  count: z.number(),
  errors: z.number(),
  error_rate: z.number(),
  tokens: amounts.describe("Sums per usage kind (every key the spans hold)"),
  costs: amounts.describe("USD per usage kind"),
  latency_ms: z.strictObject(percentiles),
  ttft_ms: z
    .strictObject({ count: z.number(), ...percentiles })
    .describe("Time to first token of the spans that report it"),
  scores: z
    .strictObject({
      count: z.number().describe("Evaluator results with a numeric score or a pass/fail verdict"),
      score_count: z.number().describe("Results with a numeric score"),
      mean: z.number().optional().describe("Mean score; left out when no result has one"),
      verdict_count: z.number().describe("Results with a boolean success"),
      pass_rate: z.number().optional().describe("Share of verdicts that passed; left out when there is none"),
    })
    .describe(
      "Evaluator results of live evaluations on these runs, in the bucket of the run each scored (its root span's start)",
    ),
});

const groupWire = z.strictObject({
  key: z.string().optional().describe("Omitted for spans without a value"),
  metrics: metricsWire,
});

export const analyticsResponseWire = z.strictObject({
  count: z.number().int().describe("Number of buckets"),
  focus: z.enum(["run", "span"]),
  source: z.enum(["rollup", "scan"]),
  windowing: z.strictObject({
    oldest: z.string(),
    newest: z.string(),
    bucket: z.enum(BUCKET_UNITS),
    timezone: z.string(),
  }),
  group_by: analyticsGroupSchema.optional(),
  metrics: metricsWire,
  groups: z.array(groupWire).optional(),
  buckets: z.array(
    z.strictObject({ timestamp: z.string(), metrics: metricsWire, groups: z.array(groupWire).optional() }),
  ),
});

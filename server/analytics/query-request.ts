import { z } from "zod";
import { SPAN_DIMENSIONS } from "@/server/tracing";

export const BUCKET_UNITS = ["minute", "hour", "day"] as const;
export type BucketUnit = (typeof BUCKET_UNITS)[number];

/** At most this many buckets per query: a day of minutes, two months of hours, four years of days. */
export const MAX_BUCKETS = 1500;

export const analyticsFocusSchema = z.enum(["run", "span"]);

export const analyticsGroupSchema = z.union([
  z
    .enum([...SPAN_DIMENSIONS, "evaluator"])
    .describe("evaluator groups the scores of live evaluations; spans have none (they are in the group without a key)"),
  z.strictObject({
    attribute: z
      .string()
      .regex(/^[^.\s]+(\.[^.\s]+)*$/, "a dotted attribute path, such as ag.meta.tool.name")
      .max(200),
  }),
]);

export const analyticsQuerySchema = z.strictObject({
  focus: analyticsFocusSchema
    .optional()
    .describe("run: the root spans of invocation traces (default); span: every span"),
  windowing: z
    .strictObject({
      oldest: z.iso.datetime({ offset: true }).optional().describe("Default: newest minus one day"),
      newest: z.iso.datetime({ offset: true }).optional().describe("Default: now"),
      bucket: z.enum(BUCKET_UNITS).optional().describe("Default: hour"),
      timezone: z.string().max(64).optional().describe("IANA zone of the bucket boundaries; default UTC"),
    })
    .optional(),
  group_by: analyticsGroupSchema.optional(),
  filtering: z.unknown().optional().describe("The filtering of trace queries, plus the group_by dimensions as fields"),
});

export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;
export type AnalyticsGroup = z.infer<typeof analyticsGroupSchema>;

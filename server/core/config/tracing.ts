import { z } from "zod";

export const tracingEnv = {
  TRACING_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  TRACING_MAX_BACKLOG_SPANS: z.coerce.number().int().positive().default(500_000),
  TRACING_PARTITION_PERIOD: z.enum(["day", "week"]).default("week"),
  TRACING_RETENTION_DAYS: z.coerce.number().int().positive().optional(),
};

export interface TracingConfig {
  /** Largest span ingest or OTLP body, compressed or not, and after decompression. */
  maxBodyBytes: number;
  /** Past this many spans waiting in the ingest queue, ingest answers 429 with Retry-After. */
  maxBacklogSpans: number;
  partitionPeriod: "day" | "week";
  /** Whole partitions older than this are dropped; unset keeps spans forever. */
  retentionDays?: number;
}

export function tracingConfig(c: z.output<z.ZodObject<typeof tracingEnv>>): { tracing: TracingConfig } {
  return {
    tracing: {
      maxBodyBytes: c.TRACING_MAX_BODY_BYTES,
      maxBacklogSpans: c.TRACING_MAX_BACKLOG_SPANS,
      partitionPeriod: c.TRACING_PARTITION_PERIOD,
      retentionDays: c.TRACING_RETENTION_DAYS,
    },
  };
}

import path from "node:path";
import { z } from "zod";

/**
 * Every environment variable the server reads, validated once. The README's configuration
 * table mirrors this schema.
 */
const configSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default(".data"),
  PGLITE_DIR: z.string().optional(),
  ADMIN_TOKEN: z.string().min(16, "ADMIN_TOKEN must be at least 16 characters").optional(),
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  RUN_WORKERS: z.enum(["true", "false"]).default("true"),
  TRACING_MAX_BODY_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
  TRACING_MAX_BACKLOG_SPANS: z.coerce.number().int().positive().default(500_000),
  TRACING_PARTITION_PERIOD: z.enum(["day", "week"]).default("week"),
  TRACING_RETENTION_DAYS: z.coerce.number().int().positive().optional(),
});

export interface Config {
  databaseUrl?: string;
  dataDir: string;
  pgliteDir: string;
  adminToken?: string;
  maxBodyBytes: number;
  /** Start the background workers (trace ingest, ...) inside the server process; `false` when `npm run worker` runs them. */
  runWorkers: boolean;
  tracing: TracingConfig;
}

export interface TracingConfig {
  /** Largest span ingest or OTLP body, compressed or not, and after decompression. */
  maxBodyBytes: number;
  /** Past this many spans waiting in the ingest queue, ingest answers 429 with Retry-After. */
  maxBacklogSpans: number;
  partitionPeriod: "day" | "week";
  /** Whole partitions older than this are dropped; unset keeps spans forever. */
  retentionDays?: number;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  return {
    databaseUrl: c.DATABASE_URL,
    dataDir: c.DATA_DIR,
    pgliteDir: c.PGLITE_DIR ?? path.join(c.DATA_DIR, "pglite"),
    adminToken: c.ADMIN_TOKEN,
    maxBodyBytes: c.MAX_BODY_BYTES,
    runWorkers: c.RUN_WORKERS === "true",
    tracing: {
      maxBodyBytes: c.TRACING_MAX_BODY_BYTES,
      maxBacklogSpans: c.TRACING_MAX_BACKLOG_SPANS,
      partitionPeriod: c.TRACING_PARTITION_PERIOD,
      retentionDays: c.TRACING_RETENTION_DAYS,
    },
  };
}

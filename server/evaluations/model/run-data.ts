import { z } from "zod";

/** A reference to an entity (the reference implementation's `Reference`: id, slug, version). */
export const refSchema = z.strictObject({
  id: z.string().optional(),
  slug: z.string().optional(),
  version: z.string().optional(),
});

export const stepSchema = z.strictObject({
  key: z.string().min(1).max(300),
  type: z.enum(["input", "invocation", "annotation"]),
  origin: z.enum(["custom", "human", "auto"]).default("custom"),
  references: z.record(z.string(), refSchema).default({}),
  inputs: z.array(z.strictObject({ key: z.string() })).nullish(),
  schemas: z.record(z.string(), z.unknown()).nullish(),
  /** An invocation of an unsaved draft: the application's parameters inline, run instead of a revision. */
  parameters: z.record(z.string(), z.unknown()).nullish(),
});
export type Step = z.output<typeof stepSchema>;

export const concurrencySchema = z.strictObject({
  batch_size: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .nullish()
    .describe("Cells of this run executed at once, across workers (default 10)."),
  max_retries: z
    .number()
    .int()
    .min(0)
    .max(20)
    .nullish()
    .describe("Extra attempts of a cell failing for a retryable reason (rate limit, 5xx, timeout); default 3."),
  retry_delay: z
    .number()
    .min(0)
    .max(3600)
    .nullish()
    .describe("Seconds before the first retry, doubled per attempt (default 1)."),
  timeout: z
    .number()
    .min(0.01)
    .max(7 * 24 * 3600)
    .nullish()
    .describe("The run's time budget in seconds: past it, in-flight cells are aborted and the run fails."),
});
export type Concurrency = z.output<typeof concurrencySchema>;

export const mappingSchema = z.strictObject({
  column: z.strictObject({ kind: z.string(), name: z.string() }),
  step: z.strictObject({ key: z.string(), path: z.string() }),
});

export const runDataSchema = z.strictObject({
  steps: z.array(stepSchema).max(100).nullish(),
  repeats: z.number().int().min(1).max(100).nullish(),
  concurrency: concurrencySchema.nullish(),
  mappings: z.array(mappingSchema).nullish(),
});
export type RunData = z.output<typeof runDataSchema>;

export interface StoredRunData {
  steps: Step[];
  repeats: number;
  concurrency?: Concurrency | null;
  mappings?: z.output<typeof mappingSchema>[];
  /** Testcases given inline to a simple evaluation (no testset revision). */
  testcases?: Record<string, unknown>[];
  /** Traces given by id to a simple evaluation (wire form), evaluated as its rows. */
  trace_ids?: string[];
}

export const DEFAULT_BATCH_SIZE = 10;
export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_RETRY_DELAY_S = 1;

export function readRunData(data: Record<string, unknown> | null | undefined): StoredRunData {
  const d = (data ?? {}) as Partial<StoredRunData>;
  return { ...d, steps: d.steps ?? [], repeats: d.repeats ?? 1 };
}

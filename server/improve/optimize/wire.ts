import { z } from "zod";

export const STRATEGIES = ["reflective", "few_shot", "parameter_sweep"] as const;
export type Strategy = (typeof STRATEGIES)[number];
export const OPTIMIZATION_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled", "stopped"] as const;
export type OptimizationStatus = (typeof OPTIMIZATION_STATUSES)[number];

const uuid = z.string().uuid();
const usd = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'a decimal amount of dollars, such as "2.00"')
  .refine((v) => Number(v) > 0, "must be more than 0");

export const startOptimizationBody = z
  .strictObject({
    base_revision_id: uuid.describe("A workflow (agent) or application (prompt) revision to improve"),
    testset_revision_id: uuid.optional(),
    testset_id: uuid.optional().describe("Instead of testset_revision_id: the testset's latest revision"),
    evaluator_revision_ids: z
      .array(uuid)
      .min(1)
      .max(10)
      .describe("The scores optimized: the mean over these evaluators, 0..1"),
    strategies: z
      .array(z.enum(STRATEGIES))
      .min(1)
      .refine((s) => new Set(s).size === s.length, "each strategy once")
      .default([...STRATEGIES]),
    model: z
      .string()
      .regex(/^[^/\s]+\/\S+$/, 'a "provider/model" id, such as "openai/gpt-5-mini"')
      .optional()
      .describe("The optimizer's own model (the reflective strategy needs one)"),
    sweep_models: z
      .array(z.string().regex(/^[^/\s]+\/\S+$/, 'a "provider/model" id'))
      .max(5)
      .optional()
      .describe("Models parameter_sweep tries besides the base's own; each must pass the project's model allowlist"),
    rounds: z.number().int().min(1).max(10).default(3),
    candidates_per_round: z.number().int().min(1).max(8).default(3),
    holdout_fraction: z.number().min(0.05).max(0.8).default(0.3),
    seed: z.number().int().min(0).max(2_147_483_647).default(42),
    spend_cap_usd: usd.optional().describe("Stops the optimization (status stopped) once its spend reaches this"),
    failure_mode_id: uuid.optional(),
  })
  .refine((b) => !(b.testset_id && b.testset_revision_id), {
    message: "give testset_revision_id or testset_id, not both",
    path: ["testset_id"],
  })
  .refine((b) => b.testset_id || b.testset_revision_id, {
    message: "give testset_revision_id (or testset_id for its latest revision)",
    path: ["testset_revision_id"],
  });
export type StartOptimizationBody = z.output<typeof startOptimizationBody>;

export const shipOptimizationBody = z.discriminatedUnion("action", [
  z.strictObject({
    action: z.literal("canary"),
    environment: z.string().min(1).describe("The environment's slug or id"),
    weight: z.number().gt(0).lt(100),
    key: z.string().min(1).max(300).optional().describe("The environment key; default `<artifact slug>.revision`"),
    min_score: z.number().min(0).max(1).optional(),
    min_score_evaluation_run_id: uuid
      .optional()
      .describe("The live evaluation scoring the canary's traffic that min_score applies to (required with min_score)"),
    monitor_ids: z.array(uuid).max(20).optional(),
  }),
  z.strictObject({ action: z.literal("review") }),
]);
export type ShipOptimizationBody = z.output<typeof shipOptimizationBody>;

export const listOptimizationsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: uuid.optional().describe("The last id of the previous page"),
});

const side = z.object({
  train_score: z.number().optional(),
  holdout_score: z.number().optional(),
  cost_usd_per_case: z.number().optional(),
  latency_ms_p50: z.number().optional(),
});

export const optimizationWire = z.object({
  id: uuid,
  status: z.enum(OPTIMIZATION_STATUSES),
  stop_reason: z.literal("spend_cap").optional(),
  base_revision_id: uuid,
  base_kind: z.enum(["workflow", "application"]),
  base_artifact_id: uuid,
  testset_revision_id: uuid,
  evaluator_revision_ids: z.array(uuid),
  strategies: z.array(z.enum(STRATEGIES)),
  model: z.string().optional(),
  sweep_models: z.array(z.string()).optional(),
  rounds: z.number().int(),
  candidates_per_round: z.number().int(),
  holdout_fraction: z.number(),
  seed: z.number().int(),
  spend_cap_usd: z.string().optional(),
  failure_mode_id: uuid.optional(),
  split: z.object({ train: z.number().int(), holdout: z.number().int() }),
  progress: z.object({
    round: z.number().int(),
    rounds: z.number().int(),
    candidate: z.number().int(),
    candidates: z.number().int(),
    cells_done: z.number().int(),
    cells_total: z.number().int(),
    best_score: z.number().optional(),
    spend_usd: z.string(),
    phase: z.enum(["queued", "baseline", "round", "holdout", "done"]).optional(),
  }),
  history: z.array(
    z.object({
      round: z.number().int(),
      candidates: z.array(
        z.object({
          revision_id: uuid,
          variant_slug: z.string(),
          version: z.string(),
          strategy: z.string(),
          train_score: z.number().optional(),
          evaluation_run_id: uuid.optional(),
          summary: z.string(),
          parent_revision_id: uuid.optional(),
        }),
      ),
      best_revision_id: uuid.optional(),
      best_score: z.number().optional(),
    }),
  ),
  result: z
    .object({
      winner_revision_id: uuid,
      winner_variant_slug: z.string(),
      base: side,
      winner: side,
      difference: z
        .object({
          mean: z.number(),
          ci_low: z.number(),
          ci_high: z.number(),
          confidence: z.number(),
          method: z.string(),
          resamples: z.number().int(),
        })
        .optional(),
      per_testcase: z.array(
        z.object({
          testcase_id: uuid,
          base: z.number().optional(),
          winner: z.number().optional(),
          outcome: z.enum(["win", "loss", "tie"]),
        }),
      ),
      wins: z.number().int(),
      losses: z.number().int(),
      ties: z.number().int(),
      split: z.enum(["holdout", "train"]).describe("Which split per_testcase and difference are over"),
    })
    .optional(),
  spend_usd: z.string(),
  error: z.string().optional(),
  created_at: z.string(),
  started_at: z.string().optional(),
  finished_at: z.string().optional(),
});
export type OptimizationWire = z.output<typeof optimizationWire>;

export const optimizationResponse = z.object({ count: z.literal(1), optimization: optimizationWire });
export const optimizationsResponse = z.object({
  count: z.number().int(),
  optimizations: z.array(optimizationWire),
  next_cursor: uuid.optional(),
});
export const shippedResponse = z.object({
  count: z.literal(1),
  shipped: z.object({
    action: z.enum(["canary", "review"]),
    canary_id: uuid.optional(),
    environment_id: uuid.optional(),
    revision_id: uuid,
    variant_id: uuid,
  }),
});

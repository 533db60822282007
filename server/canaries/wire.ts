import { z } from "zod";
import { refSchema } from "@/server/versioning";
import type { CanaryRow } from "./store";

const weight = z.number().gt(0).max(100);

const guardsSchema = z
  .strictObject({
    min_score: z
      .strictObject({
        evaluation_run_id: z.string().uuid().describe("A live evaluation scoring this environment's runs"),
        minimum: z.number(),
        min_results: z.number().int().min(1).max(100_000).default(10),
      })
      .optional(),
    monitors: z
      .array(z.string().uuid())
      .min(1)
      .max(20)
      .optional()
      .describe("Monitors of the project (ids); one that fires (enters alerting) during the canary rolls it back"),
  })
  .describe("What rolls the canary back on its own; the reason goes into the environment's history");

export const startCanaryBody = z.strictObject({
  environment_ref: refSchema.describe("The environment (slug or id)"),
  workflow_revision_ref: refSchema.optional(),
  application_revision_ref: refSchema.optional(),
  evaluator_revision_ref: refSchema.optional(),
  key: z.string().min(1).max(300).optional().describe('Default "<artifact slug>.revision"'),
  weight: weight.describe("The candidate's first share of the key's traffic, percent"),
  ramp: z
    .strictObject({
      steps: z.array(weight).min(1).max(20).describe("Shares after the first, rising; 100 promotes"),
      interval_minutes: z.number().int().min(1).max(10_080),
    })
    .optional(),
  guards: guardsSchema.optional(),
});

export const rampBody = z.strictObject({ weight: weight.optional().describe("Default: the ramp's next step") });
export const rollbackBody = z.strictObject({ reason: z.string().min(1).max(500).optional() });
export const canaryListQuery = z.strictObject({
  environment_id: z.string().uuid().optional(),
  status: z.enum(["running", "promoted", "rolled_back", "replaced"]).optional(),
});

const canaryWire = z.object({
  id: z.string(),
  environment_id: z.string(),
  environment_variant_id: z.string(),
  key: z.string(),
  revision_key: z.string(),
  baseline_revision_id: z.string(),
  candidate_revision_id: z.string(),
  status: z.enum(["running", "promoted", "rolled_back", "replaced"]),
  weight: z.number(),
  ramp: z
    .object({
      steps: z.array(z.number()),
      next_step: z.number().optional(),
      interval_minutes: z.number(),
      next_step_at: z.string().optional(),
    })
    .optional(),
  guards: guardsSchema,
  reason: z.string().optional(),
  started_at: z.string(),
  ended_at: z.string().optional(),
});

export const canaryResponse = z.object({ count: z.literal(1), canary: canaryWire });
export const canariesResponse = z.object({ count: z.number(), canaries: z.array(canaryWire) });
export const comparisonResponse = z.object({
  count: z.literal(1),
  comparison: z.object({
    window: z.object({ oldest: z.string(), newest: z.string() }),
    revisions: z.array(
      z.object({
        revision_id: z.string(),
        role: z.enum(["baseline", "candidate"]),
        metrics: z.record(z.string(), z.unknown()),
        live_score: z
          .object({ mean: z.number().nullable(), results: z.number() })
          .optional()
          .describe("The min_score guard's evaluation on this side's runs"),
        live_scores: z
          .array(
            z.object({
              evaluation_run_id: z.string(),
              name: z.string().optional(),
              mean: z.number().nullable(),
              results: z.number(),
            }),
          )
          .describe("Every live evaluation that scored this side's runs since the start: mean score, results"),
      }),
    ),
  }),
});

export type CanaryWire = z.infer<typeof canaryWire>;

export function canaryToWire(row: CanaryRow): CanaryWire {
  return {
    id: row.id,
    environment_id: row.environmentId,
    environment_variant_id: row.environmentVariantId,
    key: row.key,
    revision_key: row.revisionKey,
    baseline_revision_id: row.baselineRevisionId,
    candidate_revision_id: row.candidateRevisionId,
    status: row.status as CanaryWire["status"],
    weight: row.weight,
    ...(row.stepIntervalMs && {
      ramp: {
        steps: row.steps,
        ...(row.status === "running" &&
          row.steps[row.stepIndex] !== undefined && { next_step: row.steps[row.stepIndex] }),
        interval_minutes: row.stepIntervalMs / 60_000,
        ...(row.nextStepAt && { next_step_at: row.nextStepAt.toISOString() }),
      },
    }),
    guards: { ...row.guards },
    ...(row.reason && { reason: row.reason }),
    started_at: row.startedAt.toISOString(),
    ...(row.endedAt && { ended_at: row.endedAt.toISOString() }),
  };
}

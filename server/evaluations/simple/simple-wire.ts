import { z } from "zod";
import { compact } from "@/server/core/compact";
import { isoTimestampSchema } from "@/server/core/time";
import { readRunData } from "../model/run-data";
import type { RunOutline } from "../store/run-store";
import type { RunProgress } from "./progress";

const REVISION_KEY = {
  input: ["testset_revision", "query_revision"],
  invocation: ["application_revision", "workflow_revision"],
  annotation: ["evaluator_revision"],
} as const;

const stepMapWire = z.record(z.string(), z.string());

export const simpleEvaluationWire = z.strictObject({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema.optional(),
  created_by_id: z.string().optional(),
  flags: z.record(z.string(), z.boolean()),
  tags: z.record(z.string(), z.unknown()),
  meta: z.record(z.string(), z.unknown()),
  data: z.strictObject({
    status: z.string(),
    query_steps: stepMapWire,
    testset_steps: stepMapWire,
    application_steps: stepMapWire,
    evaluator_steps: stepMapWire,
    repeats: z.number().int(),
    testcases: z.number().int().optional(),
    traces: z.number().int().optional(),
  }),
  progress: z
    .strictObject({
      cells_total: z.number().int(),
      cells_done: z.number().int(),
      steps: z.record(z.string(), z.record(z.string(), z.number().int())),
    })
    .optional(),
});

/**
 * The reference's simple evaluation shape (step maps `{revision_id: origin}` recovered from the
 * steps), plus `progress` (beyond the reference): cells done / total and per-step counts.
 */
export function simpleEvaluationToWire(run: RunOutline, progress?: RunProgress) {
  const data = readRunData(run.data);
  const maps = {
    query_steps: {} as Record<string, string>,
    testset_steps: {} as Record<string, string>,
    application_steps: {} as Record<string, string>,
    evaluator_steps: {} as Record<string, string>,
  };
  for (const step of data.steps) {
    const key = REVISION_KEY[step.type].find((k) => step.references[k]?.id);
    const id = key ? step.references[key]!.id! : undefined;
    if (!id) continue;
    const target =
      step.type === "input"
        ? key === "query_revision"
          ? maps.query_steps
          : maps.testset_steps
        : step.type === "invocation"
          ? maps.application_steps
          : maps.evaluator_steps;
    target[id] = step.origin;
  }
  return compact({
    id: run.id,
    name: run.name,
    description: run.description,
    created_at: run.createdAt.toISOString(),
    updated_at: run.updatedAt?.toISOString(),
    created_by_id: run.createdById,
    flags: run.flags,
    tags: run.tags ?? {},
    meta: run.meta ?? {},
    data: {
      status: run.status,
      ...maps,
      repeats: data.repeats,
      ...(run.inlineTestcases !== null ? { testcases: run.inlineTestcases } : {}),
      ...(run.inlineTraces !== null ? { traces: run.inlineTraces } : {}),
    },
    progress,
  });
}

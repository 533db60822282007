import { z } from "zod";
import { concurrencySchema } from "../model/run-data";

const origin = z.enum(["custom", "human", "auto"]);
/** A list of revision ids, or a map `{revision_id: origin}` (reference §3.1). */
export const targetSchema = z.union([z.array(z.string().uuid()), z.record(z.string().uuid(), origin)]);
export type Target = z.output<typeof targetSchema>;

export const simpleEvaluationDataSchema = z.object({
  status: z.string().nullish(),
  query_steps: targetSchema.nullish(),
  testset_steps: targetSchema.nullish(),
  application_steps: targetSchema.nullish(),
  evaluator_steps: targetSchema.nullish(),
  application_drafts: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(200).describe("What the results call this draft."),
        agent: z.unknown().describe("The agent template, as the editor holds it (committed nowhere)."),
      }),
    )
    .max(10)
    .nullish()
    .describe("Unsaved agent drafts to run as they are, beside (or instead of) application revisions."),
  testcases: z
    .array(z.record(z.string(), z.unknown()))
    .min(1)
    .max(50_000)
    .nullish()
    .describe("Testcases given inline (each a row of columns), instead of a testset revision."),
  trace_ids: z
    .array(z.string().regex(/^(0x)?[0-9a-fA-F-]{32,36}$/, "a trace id is 32 hex digits or a UUID"))
    .min(1)
    .max(10_000)
    .nullish()
    .describe(
      "Traces given by id: their inputs are the rows (re-invoked with an application, else scored as they are).",
    ),
  repeats: z.number().int().min(1).max(100).nullish(),
  concurrency: concurrencySchema.nullish(),
});

export const simpleEvaluationSchema = z.object({
  name: z.string().max(500).nullish(),
  description: z.string().max(5000).nullish(),
  flags: z.record(z.string(), z.boolean().nullish()).nullish(),
  tags: z.record(z.string(), z.unknown()).nullish(),
  meta: z.record(z.string(), z.unknown()).nullish(),
  data: simpleEvaluationDataSchema.nullish(),
});
export type SimpleEvaluationInput = z.output<typeof simpleEvaluationSchema>;

export const simpleEvaluationBody = z.object({ evaluation: simpleEvaluationSchema });

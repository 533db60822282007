import { BadRequestError, type ErrorCode } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { readSavedQuery } from "../execution/query-source";
import { lookupRevision } from "../execution/step-targets";
import type { Step } from "../model/run-data";
import type { RevisionRecord } from "@/server/versioning";
import type { SimpleEvaluationInput, Target } from "./input";

type Origin = Step["origin"];

/**
 * What building a simple evaluation's graph (the steps from its input, then `validateGraph`) may
 * refuse: the errors its create and edit routes, and a simple queue's create, declare.
 */
export const GRAPH_ERRORS = [
  "empty_testset",
  "invalid_query",
  "missing_draft",
  "missing_reference",
  "missing_source",
  "no_evaluator_uri",
  "not_found",
  "too_many_traces",
  "unknown_evaluator",
  "unknown_revision",
  "unknown_trace",
  "unsupported_graph",
  "unsupported_live_graph",
] as const satisfies readonly ErrorCode[];

/** `[ids]` gets `fallback`; a map keeps each id's origin. */
function entries(target: Target | null | undefined, fallback: Origin): [string, Origin][] {
  if (!target) return [];
  return Array.isArray(target) ? target.map((id) => [id, fallback]) : Object.entries(target);
}

function refs(prefix: string, revision: RevisionRecord) {
  return {
    [prefix]: { id: revision.artifactId, slug: revision.artifactSlug },
    [`${prefix}_variant`]: { id: revision.variantId, slug: revision.variantSlug },
    [`${prefix}_revision`]: { id: revision.id, slug: revision.slug, version: String(revision.version) },
  };
}

/**
 * The run graph of a simple evaluation (reference §3.1): saved queries, testsets, inline
 * testcases, traces by id, the application, the evaluators, in that order, each revision
 * resolved now so that a bad id is a 400 naming it rather than the reference implementation's
 * silent `{count: 0}`. A bare evaluator list means `auto` here (the reference implementation makes
 * it `custom`, which its backend never runs).
 */
export async function buildSteps(
  db: Executor,
  projectId: string,
  input: SimpleEvaluationInput,
  /** A queue's input step whose rows are pushed later (traces or testcases by id). */
  direct?: "traces" | "testcases",
): Promise<Step[]> {
  const data = input.data ?? {};
  const steps: Step[] = [];
  for (const [id, origin] of entries(data.query_steps, "custom")) {
    const { revision } = await lookupRevision(db, projectId, ["queries"], id, "data.query_steps: query revision");
    readSavedQuery(revision);
    steps.push({ key: `query-${revision.slug}`, type: "input", origin, references: refs("query", revision) });
  }
  for (const [id, origin] of entries(data.testset_steps, "custom")) {
    const { revision } = await lookupRevision(db, projectId, ["testsets"], id, "data.testset_steps: testset revision");
    steps.push({ key: `testset-${revision.slug}`, type: "input", origin, references: refs("testset", revision) });
  }
  if (data.testcases?.length || direct === "testcases")
    steps.push({ key: "testcases", type: "input", origin: "custom", references: {} });
  if (data.trace_ids?.length || direct === "traces")
    steps.push({ key: "traces", type: "input", origin: "custom", references: {} });
  for (const [id, origin] of entries(data.application_steps, "custom")) {
    const { revision } = await lookupRevision(
      db,
      projectId,
      ["applications", "workflows"],
      id,
      "data.application_steps: application revision",
    );
    steps.push({
      key: `application-${revision.slug}`,
      type: "invocation",
      origin,
      references: refs("application", revision),
      inputs: [{ key: "__all_inputs__" }],
    });
  }
  (data.application_drafts ?? []).forEach((draft, index) => {
    if (draft.agent === undefined || draft.agent === null)
      throw new BadRequestError(`data.application_drafts[${index}].agent: give the agent template`, "missing_draft");
    steps.push({
      key: `application-draft-${index + 1}`,
      type: "invocation",
      origin: "custom",
      references: { application: { slug: draft.name } },
      parameters: { agent: draft.agent },
      inputs: [{ key: "__all_inputs__" }],
    });
  });
  const hasApp = steps.some((s) => s.type === "invocation");
  for (const [id, origin] of entries(data.evaluator_steps, "auto")) {
    const { revision } = await lookupRevision(
      db,
      projectId,
      ["evaluators"],
      id,
      "data.evaluator_steps: evaluator revision",
    );
    steps.push({
      key: `evaluator-${revision.slug}`,
      type: "annotation",
      origin,
      references: refs("evaluator", revision),
      inputs: [...(hasApp ? [{ key: "__all_invocations__" }] : []), { key: "__all_inputs__" }],
    });
  }
  if (!steps.some((s) => s.type === "input"))
    throw new BadRequestError(
      "data: give query_steps, testset_steps, testcases or trace_ids: an evaluation needs rows to evaluate",
      "missing_source",
    );
  return steps;
}

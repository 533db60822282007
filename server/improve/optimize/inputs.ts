import { NotFoundError, SchemaValidationError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { domainKeys, Lookup } from "@/server/versioning";
import { getFailureMode } from "../triage";
import type { Testcase } from "./evaluate";

const testsets = domainKeys("testsets");

/** A testset revision's testcases (id and columns), in their order. */
export async function testcasesOf(db: Executor, projectId: string, revisionId: string): Promise<Testcase[]> {
  const revision = await new Lookup(db, projectId, testsets).revision({ id: revisionId }, "testset_revision_id");
  const rows = (revision.data?.testcases ?? []) as { id: string; data?: Record<string, unknown> }[];
  return rows.map((row) => ({ id: row.id, data: row.data ?? {} }));
}

/** The testset revision a request names: the one given, or the latest of the testset given. */
export async function testsetRevisionOf(
  db: Executor,
  projectId: string,
  body: { testset_revision_id?: string; testset_id?: string },
): Promise<string> {
  const lookup = new Lookup(db, projectId, testsets);
  if (body.testset_revision_id)
    return (await lookup.revision({ id: body.testset_revision_id }, "testset_revision_id")).id;
  const artifact = await lookup.artifact({ id: body.testset_id! }, "testset_id");
  const variant = await lookup.defaultVariant(artifact);
  if (!variant.headVersion)
    throw new SchemaValidationError(
      [{ path: "testset_id", message: "the testset has no revision" }],
      `testset ${artifact.slug} has no revision yet: commit testcases first`,
    );
  return (await lookup.revisionOfVariant(variant)).id;
}

/** Each evaluator revision must exist in the project (404 naming the first that does not). */
export async function checkEvaluators(db: Executor, projectId: string, ids: string[]): Promise<void> {
  const lookup = new Lookup(db, projectId, domainKeys("evaluators"));
  for (const id of ids) {
    try {
      await lookup.revision({ id }, "evaluator_revision_ids");
    } catch (error) {
      if ((error as { status?: number }).status === 404)
        throw new NotFoundError(`evaluator revision ${id} not found in this project`);
      throw error;
    }
  }
}

/** A failure mode of the project (404 when it is not one), from triage's export. */
export async function checkFailureMode(db: Executor, projectId: string, id: string): Promise<void> {
  await getFailureMode(db, projectId, id);
}

/**
 * The failure mode's examples the reflective rewriter is shown beside the failing training cases
 * (none without a failure mode): its input, the output, the feedback and what was expected.
 */
export async function failureExamples(
  db: Executor,
  projectId: string,
  failureModeId: string | null,
): Promise<{ input: unknown; output?: unknown; feedback?: string; expected?: unknown }[]> {
  if (!failureModeId) return [];
  const mode = await getFailureMode(db, projectId, failureModeId);
  return mode.examples.slice(0, 5).map((e) => ({
    input: e.input,
    output: e.output,
    ...(e.feedback ? { feedback: e.feedback } : {}),
    ...(e.expected !== undefined ? { expected: e.expected } : {}),
  }));
}

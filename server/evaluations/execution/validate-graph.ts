import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import type { StoredRunData } from "../model/run-data";
import { checkLiveGraph } from "./live-graph";
import { isExecutable } from "./plan-cells";
import { savedQueryOf } from "./query-source";
import { evaluatorTarget, lookupRevision, revisionIdOf } from "./step-targets";

/**
 * Refuses, before anything runs, a graph this service cannot execute, with the reason: more
 * than one application, a revision that does not exist, an evaluator URI no executor runs.
 */
export async function validateGraph(
  db: Executor,
  projectId: string,
  data: StoredRunData,
  flags: Record<string, boolean | null | undefined> = {},
): Promise<void> {
  const invocations = data.steps.filter((s) => s.type === "invocation");
  if (invocations.length > 1) {
    throw new BadRequestError(
      `a run invokes at most one application; this one has ${invocations.length} (${invocations.map((s) => s.key).join(", ")}); create one run per application and compare them`,
      "unsupported_graph",
    );
  }
  if (!data.steps.some((s) => s.type === "input"))
    throw new BadRequestError(
      "the run has no input step: give a testset, testcases, a saved query or trace ids",
      "unsupported_graph",
    );
  if (flags.is_live) await checkLiveGraph(db, projectId, data);
  for (const step of data.steps.filter((s) => s.references.query_revision)) await savedQueryOf(db, projectId, step);
  // Only that the revisions exist: an application nothing can invoke, or an evaluator with no
  // URI, still makes a run (the reference implementation's clients probe, populate and edit such
  // runs); each cell that would run it fails with the reason (execute-cell.ts).
  for (const step of invocations)
    if (step.parameters?.agent === undefined) await applicationRevision(db, projectId, step);
  for (const step of data.steps.filter((s) => s.type === "annotation" && isExecutable(s))) {
    const { revision } = await lookupRevision(
      db,
      projectId,
      ["evaluators"],
      revisionIdOf(step, ["evaluator_revision"]),
      "evaluator revision",
    );
    const uri = revision.data?.uri;
    if (typeof uri === "string" && uri) await evaluatorTarget(db, projectId, step);
  }
}

const applicationRevision = (db: Executor, projectId: string, step: StoredRunData["steps"][number]) =>
  lookupRevision(
    db,
    projectId,
    ["applications", "workflows"],
    revisionIdOf(step, ["application_revision", "workflow_revision"]),
    "application revision",
  );

import { newId } from "@/server/core/ids";
import type { Database } from "@/server/db";
import type { Scope } from "@/server/versioning";
import { lookupRevision } from "../execution/step-targets";
import { createSimpleEvaluation, querySimpleEvaluations, type SimpleEvaluation } from "./simple-evaluations";

export interface RevisionsEvaluation {
  name?: string;
  testsetRevisionId: string;
  /** Committed application (agent) revisions, each evaluated in its own run. */
  revisionIds: string[];
  /** Unsaved drafts, each run as it is in its own run; nothing is committed. */
  drafts: { name: string; agent: unknown }[];
  evaluatorRevisionIds: string[];
  repeats: number;
}

/**
 * One run per revision (and per draft), all on the same testset revision and evaluators, so that
 * any two of them compare row by row. The runs share a `meta.batch` id; each carries its
 * application revision id in `meta.application_revision_id` (what "compare evaluations of
 * these two revisions" looks up) and what it evaluated, for people, in `meta.evaluated`.
 */
export async function evaluateRevisions(
  db: Database,
  scope: Scope,
  request: RevisionsEvaluation,
): Promise<SimpleEvaluation[]> {
  const batch = newId();
  const base = {
    testset_steps: [request.testsetRevisionId],
    evaluator_steps: request.evaluatorRevisionIds,
    repeats: request.repeats,
  };
  const several = request.revisionIds.length + request.drafts.length > 1;
  // Each run says what it evaluated ("agent v2"): unnamed runs are named so, and runs started
  // together under one name get it as a suffix, so no two columns of their comparison read alike.
  const nameOf = (evaluated: string) =>
    request.name === undefined ? evaluated : several ? `${request.name} · ${evaluated}` : request.name;
  const runs: SimpleEvaluation[] = [];
  for (const revisionId of request.revisionIds) {
    const { revision } = await lookupRevision(
      db,
      scope.projectId,
      ["workflows", "applications"],
      revisionId,
      "revisionIds: revision",
    );
    const evaluated = `${revision.artifactSlug} v${revision.version}`;
    runs.push(
      await createSimpleEvaluation(db, scope, {
        name: nameOf(evaluated),
        meta: {
          batch,
          application_revision_id: revisionId,
          evaluated,
          testset_revision_id: request.testsetRevisionId,
        },
        data: { ...base, application_steps: [revisionId] },
      }),
    );
  }
  for (const draft of request.drafts) {
    const evaluated = draft.name;
    runs.push(
      await createSimpleEvaluation(db, scope, {
        name: nameOf(evaluated),
        meta: { batch, draft: draft.name, evaluated, testset_revision_id: request.testsetRevisionId },
        data: { ...base, application_drafts: [draft] },
      }),
    );
  }
  return runs;
}

/**
 * The newest evaluation of each revision on a testset revision they were all evaluated on (the
 * newest such testset), in the order given: what a comparison of revisions opens. Revisions
 * never evaluated on a common testset give an empty list.
 */
export async function latestEvaluationsOfRevisions(
  db: Database,
  projectId: string,
  revisionIds: string[],
): Promise<SimpleEvaluation[]> {
  const perRevision = await Promise.all(
    revisionIds.map(
      async (id) =>
        (await querySimpleEvaluations(db, projectId, { meta: { application_revision_id: id } }, { limit: 100 })).items,
    ),
  );
  const testsetOf = (run: SimpleEvaluation) => String(run.meta.testset_revision_id ?? "");
  // Newest first: the first testset every revision has a run on wins.
  for (const candidate of perRevision[0] ?? []) {
    const testset = testsetOf(candidate);
    if (!testset) continue;
    const picks = perRevision.map((runs) => runs.find((r) => testsetOf(r) === testset));
    if (picks.every((p) => p !== undefined)) return picks as SimpleEvaluation[];
  }
  return [];
}

import type { Executor } from "@/server/db";
import { latestEvaluation, type EvaluationSummary } from "./evaluation-evidence";
import { getDeployGate, type DeployGate } from "./gate-store";

const SCORED = ["success", "errors"];
const IN_PROGRESS = ["pending", "queued", "running"];

export interface RevisionEvidence {
  /** The newest evaluation that finished on the compared testset (with errors counts: it is shown). */
  latest?: EvaluationSummary;
  /** A newer evaluation still running there, if any. */
  running?: EvaluationSummary;
}

export interface DeployEvidence {
  gate?: DeployGate;
  /** The testset both sides are compared on: the gate's, else the candidate's (else the current one's) latest. */
  testsetId?: string;
  candidate: RevisionEvidence;
  current?: RevisionEvidence;
  /** Per evaluator slug: candidate score minus current score, where both exist. */
  deltas: Record<string, number>;
}

async function evidenceOf(db: Executor, projectId: string, revisionId: string, testsetId?: string) {
  const latest = await latestEvaluation(db, projectId, { revisionId, testsetId, statuses: SCORED });
  const running = await latestEvaluation(db, projectId, { revisionId, testsetId, statuses: IN_PROGRESS });
  return { latest, running: running && (!latest || running.runId > latest.runId) ? running : undefined };
}

/**
 * What the deploy dialog shows: the latest evaluation of the revision being deployed and of the
 * one the environment runs now, on the same testset, and the score deltas between them.
 */
export async function deployEvidence(
  db: Executor,
  projectId: string,
  input: { revisionId: string; currentRevisionId?: string },
): Promise<DeployEvidence> {
  const gate = await getDeployGate(db, projectId);
  let testsetId = gate?.testset.id;
  if (!testsetId) {
    const anyOwn = await latestEvaluation(db, projectId, { revisionId: input.revisionId, statuses: SCORED });
    const anyCurrent =
      !anyOwn?.testset?.id && input.currentRevisionId
        ? await latestEvaluation(db, projectId, { revisionId: input.currentRevisionId, statuses: SCORED })
        : undefined;
    testsetId = anyOwn?.testset?.id ?? anyCurrent?.testset?.id;
  }
  const candidate = await evidenceOf(db, projectId, input.revisionId, testsetId);
  const current =
    input.currentRevisionId && input.currentRevisionId !== input.revisionId
      ? await evidenceOf(db, projectId, input.currentRevisionId, testsetId)
      : undefined;
  const deltas: Record<string, number> = {};
  for (const mine of candidate.latest?.scores ?? []) {
    const theirs = current?.latest?.scores.find((s) => s.evaluatorSlug === mine.evaluatorSlug);
    if (mine.score !== undefined && theirs?.score !== undefined) deltas[mine.evaluatorSlug] = mine.score - theirs.score;
  }
  return { gate, testsetId, candidate, current, deltas };
}

import { processWide } from "@/server/core/process-wide";
import type { Executor } from "@/server/db";

/** One evaluator's mean score in a run. */
export interface EvaluatorScore {
  evaluatorId?: string;
  evaluatorSlug: string;
  origin: string;
  /** Mean `score`, else the share of `success`; absent while nothing was scored. */
  score?: number;
  count: number;
}

/** What one evaluation run says about the revision it invoked. */
export interface EvaluationSummary {
  runId: string;
  name: string | null;
  status: string;
  createdAt: Date;
  testset?: { id?: string; slug?: string; revisionId?: string; version?: string };
  scores: EvaluatorScore[];
}

export interface EvidenceQuery {
  revisionId: string;
  /** A testset artifact: only runs over one of its revisions. */
  testsetId?: string;
  /** An evaluator artifact: only runs that score with one of its revisions. */
  evaluatorId?: string;
  /** Only runs in these statuses (the gate takes `success` only: a failed cell leaves scores partial). */
  statuses: string[];
}

/** The newest evaluation run of one revision (as its only invocation) that matches the query. */
export type EvidenceReader = (
  db: Executor,
  projectId: string,
  query: EvidenceQuery,
) => Promise<EvaluationSummary | undefined>;

/** On globalThis (processWide): Next.js loads this module once per route bundle, the reader is passed once. */
const passed = processWide("deploy-gates.evidence-reader", (_: typeof globalThis) => ({
  reader: undefined as EvidenceReader | undefined,
}));

/**
 * The evaluations area answers the evidence question from its own tables, but it sits above this
 * one (it imports the agent runner, which imports the domains, whose environment commit calls the
 * gate): the composition root passes its reader in (server/boot). Process-wide, as the
 * environments spec that calls the gate is; the reader holds no state of its own.
 */
export function setEvidenceReader(read: EvidenceReader): void {
  passed(globalThis).reader = read;
}

export function latestEvaluation(
  db: Executor,
  projectId: string,
  query: EvidenceQuery,
): Promise<EvaluationSummary | undefined> {
  const reader = passed(globalThis).reader;
  if (!reader)
    throw new Error("deploy-gates: no evidence reader was passed in (server/boot passes the evaluations' one)");
  return reader(db, projectId, query);
}

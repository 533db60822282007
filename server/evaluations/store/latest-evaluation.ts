import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { evaluationMetrics, evaluationRuns } from "@/server/db/schema";
import type { EvaluationSummary, EvidenceQuery } from "@/server/deploy-gates";

/** Runs looked at per question; the newest matching one answers it. */
const SCAN = 200;

interface StepRef {
  id?: string;
  slug?: string;
  version?: string;
}
interface RunStep {
  key: string;
  type: string;
  origin?: string;
  references?: Record<string, StepRef | undefined>;
}

const SCORE = "attributes.svc.data.outputs.score";
const SUCCESS = "attributes.svc.data.outputs.success";

function meanOf(metric: unknown): { mean?: number; count: number } | undefined {
  if (!metric || typeof metric !== "object") return undefined;
  const { mean, count } = metric as { mean?: unknown; count?: unknown };
  return { mean: typeof mean === "number" ? mean : undefined, count: typeof count === "number" ? count : 0 };
}

/** The revision a run invokes, when it invokes exactly one: only then are its scores that revision's. */
function soleInvocation(steps: RunStep[]): StepRef | undefined {
  const invocations = steps.filter((s) => s.type === "invocation");
  if (invocations.length !== 1) return undefined;
  const refs = invocations[0].references ?? {};
  return refs.application_revision ?? refs.workflow_revision;
}

function summarize(
  run: typeof evaluationRuns.$inferSelect,
  metrics: Record<string, Record<string, unknown>> | undefined,
): EvaluationSummary {
  const steps = ((run.data as { steps?: RunStep[] }).steps ?? []) as RunStep[];
  const input = steps.find((s) => s.type === "input" && s.references?.testset);
  const testset = input
    ? {
        id: input.references!.testset?.id,
        slug: input.references!.testset?.slug,
        revisionId: input.references!.testset_revision?.id,
        version: input.references!.testset_revision?.version,
      }
    : undefined;
  const scores = steps
    .filter((s) => s.type === "annotation")
    .map((s) => {
      const own = metrics?.[s.key] ?? {};
      const picked = meanOf(own[SCORE]) ?? meanOf(own[SUCCESS]);
      return {
        evaluatorId: s.references?.evaluator?.id,
        evaluatorSlug: s.references?.evaluator?.slug ?? s.key,
        origin: s.origin ?? "custom",
        score: picked?.mean,
        count: picked?.count ?? 0,
      };
    });
  return { runId: run.id, name: run.name, status: run.status, createdAt: run.createdAt, testset, scores };
}

/**
 * The newest evaluation run of one application or workflow revision (as its only invocation),
 * optionally on a given testset and with a given evaluator: the deploy gate's evidence reader,
 * which the composition root passes to server/deploy-gates (it sits below this area).
 */
export async function latestEvaluation(
  db: Executor,
  projectId: string,
  query: EvidenceQuery,
): Promise<EvaluationSummary | undefined> {
  const revision = (name: string) =>
    sql`${evaluationRuns.references} @> ${JSON.stringify([{ [name]: { id: query.revisionId } }])}::jsonb`;
  const has = (name: string, id: string | undefined) =>
    id ? sql`${evaluationRuns.references} @> ${JSON.stringify([{ [name]: { id } }])}::jsonb` : undefined;
  const runs = await db
    .select()
    .from(evaluationRuns)
    .where(
      and(
        eq(evaluationRuns.projectId, projectId),
        or(revision("application_revision"), revision("workflow_revision")),
        has("testset", query.testsetId),
        has("evaluator", query.evaluatorId),
        inArray(evaluationRuns.status, query.statuses),
      ),
    )
    .orderBy(desc(evaluationRuns.id))
    .limit(SCAN);
  const run = runs.find(
    (r) => soleInvocation(((r.data as { steps?: RunStep[] }).steps ?? []) as RunStep[])?.id === query.revisionId,
  );
  if (!run) return undefined;
  const [global] = await db
    .select({ data: evaluationMetrics.data })
    .from(evaluationMetrics)
    .where(
      and(
        eq(evaluationMetrics.runId, run.id),
        isNull(evaluationMetrics.scenarioId),
        isNull(evaluationMetrics.timestamp),
      ),
    );
  return summarize(run, global?.data as Record<string, Record<string, unknown>> | undefined);
}

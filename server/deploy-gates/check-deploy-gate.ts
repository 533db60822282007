import { ConflictError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { latestEvaluation } from "./evaluation-evidence";
import { getDeployGate, GATED_ENVIRONMENT, type DeployGate } from "./gate-store";

type Entry = Record<string, unknown>;
interface EntryRef {
  id?: string;
  slug?: string;
  version?: string;
}

/** The entry families an evaluation can vouch for: those it invokes. */
const EVALUATED = ["application", "workflow"] as const;

const formatScore = (n: number) => String(Math.round(n * 1000) / 1000);

function requirement(gate: DeployGate): string {
  return `Deploys to ${GATED_ENVIRONMENT} require an evaluation on testset "${gate.testset.slug ?? gate.testset.id}" scored by "${gate.evaluator.slug ?? gate.evaluator.id}" with a mean score of at least ${formatScore(gate.minScore)} (project settings)`;
}

/**
 * Refuses a commit of the gated environment that points an entry at an application or workflow
 * revision without the evidence the project's gate asks for: a finished evaluation of that revision
 * (its only invocation) on the gate's testset, scored by its evaluator, with a mean score at or
 * above the minimum. The newest such run decides, so a worse re-run takes a revision out of
 * production's reach. Entries that float (an artifact or variant without a revision) are refused
 * too: what they would run later was never evaluated. Every deploy path commits through here.
 */
export async function assertDeployAllowed(
  db: Executor,
  projectId: string,
  environmentSlug: string,
  changed: Record<string, Entry>,
): Promise<void> {
  if (environmentSlug !== GATED_ENVIRONMENT || Object.keys(changed).length === 0) return;
  const gate = await getDeployGate(db, projectId);
  if (!gate) return;
  for (const [key, entry] of Object.entries(changed)) {
    const family = EVALUATED.find((f) => entry[f] || entry[`${f}_variant`] || entry[`${f}_revision`]);
    if (!family) continue;
    const revision = entry[`${family}_revision`] as EntryRef | undefined;
    const artifact = entry[family] as EntryRef | undefined;
    if (!revision?.id) {
      throw new ConflictError(
        `references["${key}"]: ${requirement(gate)}, so it takes a pinned ${family} revision, not a ${family} or variant that later commits would change`,
        "evaluation_required",
      );
    }
    const label = `${family} "${artifact?.slug ?? key}" version ${revision.version ?? revision.id}`;
    const evidence = await latestEvaluation(db, projectId, {
      revisionId: revision.id,
      testsetId: gate.testset.id,
      evaluatorId: gate.evaluator.id,
      statuses: ["success"],
    });
    if (!evidence) {
      throw new ConflictError(
        `${requirement(gate)}: ${label} has no finished evaluation there. Run one, then deploy.`,
        "evaluation_required",
      );
    }
    const score = evidence.scores.find((s) => s.evaluatorId === gate.evaluator.id)?.score;
    if (score === undefined || score < gate.minScore) {
      throw new ConflictError(
        `${requirement(gate)}: the latest evaluation of ${label} (run ${evidence.runId}) scored ${score === undefined ? "nothing" : formatScore(score)}.`,
        "evaluation_below_threshold",
      );
    }
  }
}

import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;

export type DeployEvidence = Outputs["deployGate"]["evidence"];
export type DeployGate = NonNullable<Outputs["deployGate"]["get"]>;
export type EvaluationSummary = NonNullable<DeployEvidence["candidate"]["latest"]>;

/** Scores as people compare them: two decimals, no trailing noise. */
export const formatScore = (score: number) => (Math.round(score * 100) / 100).toString();

export const formatDelta = (delta: number) =>
  `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${formatScore(Math.abs(delta))}`;

/** Whether a summary meets the gate as the server judges it: finished without errors, score at or above the minimum. */
export function meetsGate(summary: EvaluationSummary | undefined, gate: DeployGate): boolean {
  if (!summary || summary.status !== "success") return false;
  const score = summary.scores.find((s) => s.evaluatorId === gate.evaluator.id)?.score;
  return score !== undefined && score >= gate.minScore;
}

import type {
  evaluationMetrics,
  evaluationQueues,
  evaluationResults,
  evaluationRuns,
  evaluationScenarios,
} from "@/server/db/schema";

export type EvaluationRunRow = typeof evaluationRuns.$inferSelect;
export type ScenarioRow = typeof evaluationScenarios.$inferSelect;
export type ResultRow = typeof evaluationResults.$inferSelect;
export type MetricsRow = typeof evaluationMetrics.$inferSelect;
export type QueueRow = typeof evaluationQueues.$inferSelect;

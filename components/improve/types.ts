import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

/**
 * The improvement loop's records as the playground receives them: the REST wire shapes of
 * server/improve (`triageWire`, `optimizationWire`), which the tRPC router returns unchanged.
 */
type Outputs = inferRouterOutputs<AppRouter>["improve"];
type Inputs = inferRouterInputs<AppRouter>["improve"];

export type Triage = Outputs["triage"];
export type TriageStatus = Triage["status"];
export type FailureMode = Outputs["failureMode"];
/** Where a triage looks for failures, as a triage is started with it. */
export type TriageEvidence = NonNullable<Inputs["startTriage"]["evidence"]>;

export type Optimization = Outputs["optimization"];
export type OptimizationStatus = Optimization["status"];
export type OptimizationProgress = Optimization["progress"];
export type OptimizationResult = NonNullable<Optimization["result"]>;
export type Round = Optimization["history"][number];
export type Strategy = Optimization["strategies"][number];
export type TestsetRevisionMade = Outputs["failureModeToTestset"];
export type EvaluatorProposed = Outputs["failureModeToEvaluator"];
export type Shipped = Outputs["ship"];

import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Out = inferRouterOutputs<AppRouter>["evaluations"];
export type Evaluation = Out["get"];
export type EvaluationTable = Out["table"];
export type EvaluationRow = EvaluationTable["rows"][number];
export type Comparison = Out["compare"];
export type ComparedTestcase = Comparison["testcases"][number];
export type TestsetChoice = Out["testsets"][number];

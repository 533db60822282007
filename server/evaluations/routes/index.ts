import type { AnyRoute } from "@/server/http/route";
import { compareRoutes } from "./compare-routes";
import { metricRoutes } from "./metric-routes";
import { queueRoutes } from "./queue-routes";
import { resultRoutes } from "./result-routes";
import { runRoutes } from "./run-routes";
import { scenarioRoutes } from "./scenario-routes";
import { simpleEvaluationRoutes, simpleQueueRoutes, sliceRoutes } from "../compat/routes";

/**
 * Every route of the evaluation engine (server/boot/route-table.ts lists them): its own, and the
 * compat doors of `compat/` (`/api/simple/evaluations`, `/api/simple/queues`).
 */
export const evaluationRoutes: AnyRoute[] = [
  ...simpleEvaluationRoutes,
  ...runRoutes,
  ...scenarioRoutes,
  ...resultRoutes,
  ...metricRoutes,
  ...compareRoutes,
  ...sliceRoutes,
  ...queueRoutes,
  ...simpleQueueRoutes,
];

import type { AnyRoute } from "@/server/http/route";
import { cellRoutes } from "./cell-routes";
import { compareRoutes } from "./compare-routes";
import { queueRoutes } from "./queue-routes";
import { runRoutes } from "./run-routes";
import { sliceRoutes } from "./slice-routes";
import { simpleEvaluationRoutes } from "./simple-evaluation-routes";

/** Every route of the evaluation engine (server/api.ts adds this list). */
export const evaluationRoutes: AnyRoute[] = [
  ...simpleEvaluationRoutes,
  ...runRoutes,
  ...cellRoutes,
  ...compareRoutes,
  ...sliceRoutes,
  ...queueRoutes,
];

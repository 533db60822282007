import type { AnyRoute } from "@/server/http/route";
import { cellRoutes } from "./cell-routes";
import { compareRoutes } from "./compare-routes";
import { queueRoutes } from "./queue-routes";
import { runRoutes } from "./run-routes";
import { sliceRoutes } from "./slice-routes";
import { simpleEvaluationRoutes } from "./simple-evaluation-routes";
import { simpleQueueRoutes } from "./simple-queue-routes";

/** Every route of the evaluation engine (server/boot/route-table.ts lists them). */
export const evaluationRoutes: AnyRoute[] = [
  ...simpleEvaluationRoutes,
  ...runRoutes,
  ...cellRoutes,
  ...compareRoutes,
  ...sliceRoutes,
  ...queueRoutes,
  ...simpleQueueRoutes,
];

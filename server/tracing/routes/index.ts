import { compatRoutes } from "../compat/routes";
import { ingestRoutes } from "./ingest-routes";
import { readRoutes } from "./read-routes";
import { spanRoutes } from "./span-routes";

/** Every REST route of tracing, by subject: ingest, reading, and the compat doors. */
export const tracingRoutes = [...ingestRoutes, ...readRoutes, ...spanRoutes, ...compatRoutes];

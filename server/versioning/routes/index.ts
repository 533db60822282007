import type { AnyRoute } from "@/server/http/route";
import type { DomainSpec } from "../domain-spec";
import { artifactRoutes } from "./artifact-routes";
import { revisionRoutes } from "./revision-routes";
import { variantRoutes } from "./variant-routes";

/** The same REST surface for every domain, under `/api/<domain>/`. */
export function versioningRoutes(spec: DomainSpec): AnyRoute[] {
  return [...artifactRoutes(spec), ...variantRoutes(spec), ...revisionRoutes(spec)];
}

export { refsOf, requestSchemas } from "./request-schemas";
export { responseSchemas } from "./response-schemas";
export { scopeOf } from "./route-helpers";

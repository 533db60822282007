import type { AnyRoute } from "@/server/http/route";
import { DEPLOYABLE, DOMAIN_NAMES, SIMPLE, simpleRoutes, versioningRoutes } from "@/server/versioning";
import { catalogTypeRoutes } from "./catalog-type-routes";
import { deployRoute } from "./environments/routes";
import { evaluatorCatalogRoutes } from "./evaluators/catalog-routes";
import { DOMAIN_SPECS } from "./specs";
import { testcaseRoutes } from "./testsets/routes";
import { harnessCatalogRoutes } from "./workflows/catalog-routes";

export const domainRoutes: AnyRoute[] = [
  ...DOMAIN_NAMES.flatMap((name) => [
    ...versioningRoutes(DOMAIN_SPECS[name]),
    ...(DEPLOYABLE.has(name) ? [deployRoute(DOMAIN_SPECS[name])] : []),
    ...(SIMPLE.has(name) ? simpleRoutes(DOMAIN_SPECS[name]) : []),
  ]),
  ...testcaseRoutes,
  ...harnessCatalogRoutes,
  ...evaluatorCatalogRoutes,
  ...(["workflows", "applications", "evaluators"] as const).flatMap(catalogTypeRoutes),
];

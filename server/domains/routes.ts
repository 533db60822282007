import type { AnyRoute } from "@/server/http/route";
import { DEPLOYABLE, DOMAIN_NAMES, SIMPLE, simpleRoutes, versioningRoutes } from "@/server/versioning";
import { catalogTypeRoutes } from "./catalog-type-routes";
import { guardRoutes } from "./environments/guard-routes";
import { deployRoute } from "./environments/routes";
import { evaluatorCatalogRoutes } from "./evaluators/catalog-routes";
import { DOMAIN_SPECS } from "./specs";
import { testcaseRoutes } from "./testsets/routes";
import { testsetFileRoutes } from "./testsets/file-routes";
import { harnessCatalogRoutes } from "./workflows/catalog-routes";

export const domainRoutes: AnyRoute[] = [
  ...DOMAIN_NAMES.flatMap((name) => [
    ...versioningRoutes(DOMAIN_SPECS[name]),
    ...(DEPLOYABLE.has(name) ? [deployRoute(DOMAIN_SPECS[name])] : []),
    ...(SIMPLE.has(name) ? simpleRoutes(DOMAIN_SPECS[name]) : []),
  ]),
  ...guardRoutes,
  ...testcaseRoutes,
  ...testsetFileRoutes,
  ...harnessCatalogRoutes,
  ...evaluatorCatalogRoutes,
  ...(["workflows", "applications", "evaluators"] as const).flatMap(catalogTypeRoutes),
];

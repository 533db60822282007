import { createCallerFactory, createTRPCRouter } from "./init";
import { agentsRouter } from "./routers/agents";
import { apiKeysRouter } from "./routers/api-keys";
import { catalogRouter } from "./routers/catalog";
import { environmentsRouter } from "./routers/environments";
import { projectRouter } from "./routers/project";

/** Every router of the playground; a new page area adds its router here. */
export const appRouter = createTRPCRouter({
  agents: agentsRouter,
  apiKeys: apiKeysRouter,
  catalog: catalogRouter,
  environments: environmentsRouter,
  project: projectRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process (server components, tests): `createCaller(ctx).apiKeys.list()`. */
export const createCaller = createCallerFactory(appRouter);

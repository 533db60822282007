import { createCallerFactory, createTRPCRouter } from "./init";
import { accountRouter } from "./routers/account";
import { agentsRouter } from "./routers/agents";
import { apiKeysRouter } from "./routers/api-keys";
import { catalogRouter } from "./routers/catalog";
import { connectionsRouter } from "./routers/connections";
import { environmentsRouter } from "./routers/environments";
import { membersRouter } from "./routers/members";
import { projectRouter } from "./routers/project";
import { tracesRouter } from "./routers/traces";

/** Every router of the playground; a new page area adds its router here. */
export const appRouter = createTRPCRouter({
  account: accountRouter,
  agents: agentsRouter,
  apiKeys: apiKeysRouter,
  catalog: catalogRouter,
  connections: connectionsRouter,
  environments: environmentsRouter,
  members: membersRouter,
  project: projectRouter,
  traces: tracesRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process (server components, tests): `createCaller(ctx).apiKeys.list()`. */
export const createCaller = createCallerFactory(appRouter);

import { createCallerFactory, createTRPCRouter } from "./init";
import { apiKeysRouter } from "./routers/api-keys";
import { projectRouter } from "./routers/project";

/** Every router of the playground; a new page area adds its router here. */
export const appRouter = createTRPCRouter({
  apiKeys: apiKeysRouter,
  project: projectRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process (server components, tests): `createCaller(ctx).apiKeys.list()`. */
export const createCaller = createCallerFactory(appRouter);

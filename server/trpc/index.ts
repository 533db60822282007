export { createCaller, appRouter, type AppRouter } from "./root";
export { createContextFrom, createTRPCContext, type TRPCContext } from "./init";
export type { AppErrorData, ErrorShape } from "./errors";
export { handleTRPCRequest } from "./handler";

/**
 * The tRPC skeleton of the playground, after create-t3-app: 1. context, 2. initialisation,
 * 3. procedures. Routers import only `createTRPCRouter` and the procedures.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { getApp } from "@/server/app";
import { findDefaultPrincipal, type Principal } from "@/server/auth";
import type { AppContext } from "@/server/http/app-context";
import { formatError, toTRPCError } from "./errors";

// 1. CONTEXT

export interface TRPCContext {
  app: AppContext;
  headers: Headers;
  /** Who is calling, when known up front (tests, later logins); otherwise resolved per procedure. */
  principal?: Principal;
}

/** Per request from the route handler: the process's app, booted once. */
export async function createTRPCContext(opts: { headers: Headers }): Promise<TRPCContext> {
  const { context } = await getApp();
  return { app: context, headers: opts.headers };
}

/** A context over a given app and principal, for tests and scripts that bring their own database. */
export function createContextFrom(app: AppContext, options: { principal?: Principal; headers?: Headers } = {}): TRPCContext {
  return { app, headers: options.headers ?? new Headers(), principal: options.principal };
}

// 2. INITIALISATION

const t = initTRPC.context<TRPCContext>().create({
  // Dates and other non-JSON values cross the wire intact.
  transformer: superjson,
  errorFormatter: formatError,
});

export const createCallerFactory = t.createCallerFactory;
export const createTRPCRouter = t.router;

// 3. PROCEDURES

/** Server functions throw AppError; this gives it the matching tRPC code before it is formatted. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const mapped = toTRPCError(result.error);
  if (mapped) throw mapped;
  return result;
});

export const publicProcedure = t.procedure.use(appErrors);

/**
 * Everything scoped to a project. Until logins exist the playground acts as the default user of
 * the default project, the account created on first start.
 */
export const projectProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const principal = ctx.principal ?? (await findDefaultPrincipal(ctx.app.db));
  if (!principal) {
    throw new TRPCError({
      code: "UNAUTHORIZED",
      message: "No default project exists yet; restart the server to create it",
    });
  }
  return next({ ctx: { principal } });
});

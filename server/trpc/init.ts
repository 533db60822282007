/**
 * The tRPC skeleton of the playground, after create-t3-app: 1. context, 2. initialisation,
 * 3. procedures. Routers import only `createTRPCRouter` and the procedures.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { requireRole, resolveSession, type PlaygroundSession, type Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { assertSameOrigin } from "@/server/http/same-origin";
import { clientAddress } from "@/server/http/client-address";
import { withAuditActor } from "@/server/core/audit-actor";
import { recordWrite } from "@/server/db";
import { formatError, toTRPCError } from "./errors";

// 1. CONTEXT

export interface TRPCContext {
  app: AppContext;
  headers: Headers;
  /** The signed-in visitor, from the session cookie; null when nobody is signed in. */
  session: PlaygroundSession | null;
  /** Who acts, in which project, with which role: the session's selected project. */
  principal: Principal | null;
}

/** Per request: the app and whoever the session cookie says is signed in. */
export async function createTRPCContext(app: AppContext, headers: Headers): Promise<TRPCContext> {
  const session = await resolveSession(app, headers);
  return { app, headers, session, principal: session?.principal ?? null };
}

/** A context over a given app and principal, for tests and scripts that bring their own database. */
export function createContextFrom(
  app: AppContext,
  options: { principal?: Principal; session?: PlaygroundSession; headers?: Headers } = {},
): TRPCContext {
  return {
    app,
    headers: options.headers ?? new Headers(),
    session: options.session ?? null,
    principal: options.principal ?? options.session?.principal ?? null,
  };
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

/** Mutations ride on the session cookie, so a cross-site page must not be able to send them. */
const sameOriginMutations = t.middleware(({ ctx, type, next }) => {
  if (type === "mutation") assertSameOrigin(ctx.headers, ctx.app.config.publicUrl);
  return next();
});

export const publicProcedure = t.procedure.use(appErrors).use(sameOriginMutations);

/** A signed-in visitor, whether or not they belong to a project yet. */
export const sessionProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: "UNAUTHORIZED", message: "Log in to use the playground" });
  return next({ ctx: { session: ctx.session } });
});

/** Everything scoped to a project: the session's selected project, any role (reads). */
export const projectProcedure = publicProcedure.use(({ ctx, type, next }) => {
  if (!ctx.principal) {
    throw new TRPCError({
      code: ctx.session ? "FORBIDDEN" : "UNAUTHORIZED",
      message: ctx.session
        ? "You are not a member of any project; ask an owner for an invite"
        : "Log in to use the playground",
    });
  }
  const { trustedProxies, platformForwarding } = ctx.app.config;
  const actor = {
    userId: ctx.principal.userId,
    clientAddress: clientAddress(undefined, ctx.headers.get("x-forwarded-for"), trustedProxies, platformForwarding),
  };
  // Changes made through this procedure are audited as the signed-in user (server/audit).
  return withAuditActor(actor, async () => {
    const result = await next({ ctx: { principal: ctx.principal! } });
    // With read replicas, the user's next read waits for this change (server/db/read-routing.ts).
    if (type === "mutation" && result.ok) await recordWrite(ctx.app.db, actor);
    return result;
  });
});

/** Changes to a project's data (commit, deploy, keys, webhooks): members and owners, not viewers. */
export const memberProcedure = projectProcedure.use(({ ctx, next }) => {
  requireRole(ctx.principal.role, "member");
  return next();
});

/** Managing people (invites, roles): owners only. */
export const ownerProcedure = projectProcedure.use(({ ctx, next }) => {
  requireRole(ctx.principal.role, "owner");
  return next();
});

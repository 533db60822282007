import { timingSafeEqual } from "node:crypto";
import {
  BadRequestError,
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  SchemaValidationError,
  UnauthorizedError,
} from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { logger, type Logger } from "@/server/core/logger";
import { zodIssuesToFieldErrors } from "@/server/core/zod-issues";
import type { AppContext } from "@/server/core/app-context";
import type { Principal } from "@/server/core/principal";
import { hasRole, requireRole } from "@/server/core/roles";
import { requireScope } from "@/server/core/key-scopes";
import { withAuditActor, type AuditActor } from "@/server/core/audit-actor";
import { clientAddress } from "./client-address";
import { errorReply } from "./error-response";
import type { Incoming } from "./incoming";
import { PathMatcher } from "./path-matcher";
import { BodyMemo } from "./body-memo";
import { parseJsonBody } from "./read-body";
import { emptyReply, jsonReply, type Reply } from "./reply";
import { assertSameOrigin } from "./same-origin";
import type { AnyRoute, RequestContext } from "./route";

/** The Next.js door's shape: a web `Request` in, a `Response` out. */
export type RequestHandler = (request: Request) => Promise<Response>;

/**
 * Who is calling, as the accounts area resolves it; the composition root passes these in, so the
 * HTTP framework knows no feature area.
 */
export interface Authenticators {
  /** The `Authorization` header of an `api_key` route: the key's principal, or throws 401. */
  apiKey(app: AppContext, authorization: string | null): Promise<Principal>;
  /** A playground session from its cookie headers: null when not signed in. */
  session(app: AppContext, headers: Headers): Promise<{ principal: Principal | null } | null>;
}

/** The router itself, door-neutral: both the Next.js route and the node:http server call it. */
export type Router = (incoming: Incoming) => Promise<Reply>;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export interface RouterOptions {
  /** How errors look on the wire; the project's `{detail, code}` unless a door speaks another API's shape (/v1). */
  errorReply?: typeof errorReply;
  /** Rewrites the `Authorization` header before an `api_key` route reads it (/v1 takes `Bearer <key>` too). */
  authorization?: (header: string | null) => string | null;
  /**
   * Awaited after an authenticated request other than GET succeeded, before its answer is sent:
   * read replicas record the caller's write position there (server/db/read-routing.ts).
   */
  afterChange?: (actor: AuditActor) => Promise<void>;
}

/**
 * The one route wrapper every REST handler runs through: request id, auth, body limit, JSON
 * parsing, zod validation, error mapping, JSON 404 and 405.
 */
export function createRouter(
  routes: AnyRoute[],
  app: AppContext,
  authenticators: Authenticators,
  options: RouterOptions = {},
): Router {
  const toErrorReply = options.errorReply ?? errorReply;
  const matcher = new PathMatcher<AnyRoute>();
  for (const route of routes) matcher.add(route.path, route);
  const bodyMemos = new Map<AnyRoute, BodyMemo>();
  for (const route of routes) if (route.memoizeBody) bodyMemos.set(route, new BodyMemo());

  return async function handle(request: Incoming): Promise<Reply> {
    const incomingId = request.header("x-request-id");
    const requestId = incomingId && REQUEST_ID.test(incomingId) ? incomingId : newId();
    const log = new RequestLog(requestId, request);
    const started = performance.now();
    try {
      const response = await dispatch(request, requestId, log);
      if (logger.isLevelEnabled("debug"))
        log.get().debug({ status: response.status, ms: Math.round(performance.now() - started) }, "request");
      return response;
    } catch (error) {
      const response = toErrorReply(error, requestId, log.get());
      log.get().info({ status: response.status, ms: Math.round(performance.now() - started) }, "request failed");
      return response;
    }
  };

  async function dispatch(request: Incoming, requestId: string, log: RequestLog): Promise<Reply> {
    const pathname = request.pathname;
    const matches = matcher.matchAll(pathname);
    if (matches.length === 0) throw new NotFoundError(`No API route matches ${pathname}`, "route_not_found");
    const method = request.method === "HEAD" ? "GET" : request.method;
    // A loop, not `find`: no closure per request on the hot path.
    let match: (typeof matches)[number] | undefined;
    for (const m of matches) {
      if (m.value.method === method) {
        match = m;
        break;
      }
    }
    if (!match) {
      const allow = [...new Set(matches.map((m) => m.value.method))];
      throw new MethodNotAllowedError(request.method, pathname, allow);
    }
    const route = match.value;

    if (route.sameOrigin) assertSameOrigin({ get: (name) => request.header(name) }, app.config.publicUrl);
    const principal = await authorize(route, request);
    const params = route.params ? parsePathParams(route.params, match.params) : match.params;
    let body: unknown = undefined;
    if (route.body) {
      const bytes = await request.readBody(route.maxBodyBytes ?? app.config.maxBodyBytes);
      const memo = bodyMemos.get(route);
      const text = memo?.textOf(bytes);
      body = text === undefined ? undefined : memo!.get(text);
      if (body === undefined) {
        body = parseWith(route.body, parseJsonBody(bytes) ?? {});
        if (text !== undefined) memo!.set(text, body);
      }
    }
    const query = route.query
      ? parseWith(route.query, Object.fromEntries(new URLSearchParams(request.search)))
      : undefined;
    const ctx = new HandlerContext(app, requestId, principal, request, log) as RequestContext<typeof route.auth>;
    const actor = principal && new RequestActor(app, principal, request);
    const result = actor
      ? await withAuditActor(actor, () => route.handler({ ctx, body, query, params }))
      : await route.handler({ ctx, body, query, params });
    if (actor && options.afterChange && method !== "GET" && !(result instanceof Response && !result.ok)) {
      await options.afterChange(actor);
    }
    if (result instanceof Response) {
      result.headers.set("x-request-id", requestId);
      return result;
    }
    if (route.noJsonBody) return emptyReply(route.status ?? 200, requestId);
    return jsonReply(route.status ?? 200, result, requestId);
  }

  async function authorize(route: AnyRoute, request: Incoming): Promise<Principal | undefined> {
    if (route.auth === "api_key") {
      const header = request.header("authorization");
      const principal = await authenticators.apiKey(
        app,
        options.authorization ? options.authorization(header) : header,
      );
      const required = route.role ?? (route.method === "GET" ? "viewer" : "member");
      if (!hasRole(principal.role, required)) requireRole(principal.role, required, `${route.method} ${route.path}`);
      if (principal.keyScopes) {
        requireScope(
          principal.keyScopes,
          { readsOnly: required === "viewer", keyScope: route.keyScope },
          `${route.method} ${route.path}`,
        );
      }
      return principal;
    }
    if (route.auth === "session") {
      // The cookie rides along on any request a page makes, so only this app's pages may use it.
      assertSameOrigin({ get: (name) => request.header(name) }, app.config.publicUrl);
      // The headers a session lookup reads (the cookie, and the host better-auth derives its URL
      // from), not the web Request: building it here would start reading a body the router reads next.
      const headers = new Headers();
      for (const name of ["cookie", "host", "x-forwarded-host", "x-forwarded-proto"]) {
        const value = request.header(name);
        if (value !== null) headers.set(name, value);
      }
      const session = await authenticators.session(app, headers);
      if (!session) throw new UnauthorizedError("Log in to use the playground", "not_signed_in");
      if (!session.principal)
        throw new ForbiddenError("You are not a member of any project; ask an owner for an invite", "no_project");
      requireRole(
        session.principal.role,
        route.role ?? (route.method === "GET" ? "viewer" : "member"),
        `${route.method} ${route.path}`,
      );
      return session.principal;
    }
    if (route.auth === "admin") {
      checkAdminToken(app.config.adminToken, request.header("authorization"));
    }
    return undefined;
  }
}

/** The audit log's actor for an authenticated request; the client address is worked out on first read. */
class RequestActor implements AuditActor {
  readonly userId: string;
  readonly apiKeyId: string | undefined;
  private address: string | null | undefined;

  constructor(
    private readonly app: AppContext,
    principal: Principal,
    private readonly incoming: Incoming,
  ) {
    this.userId = principal.userId;
    this.apiKeyId = principal.apiKeyId;
  }

  get clientAddress(): string | undefined {
    if (this.address === undefined) {
      const { trustedProxies, platformForwarding } = this.app.config;
      this.address =
        clientAddress(
          this.incoming.peer,
          this.incoming.header("x-forwarded-for"),
          trustedProxies,
          platformForwarding,
        ) ?? null;
    }
    return this.address ?? undefined;
  }
}

/**
 * What a handler gets as `ctx`. A class, not an object literal with getters: a literal's getters
 * are fresh closures per request, and V8 gave every such object a hidden class of its own. Those
 * maps live in old space until a full collection, and from there they held each request's
 * closures, and so the whole request, alive through every young-generation collection: a fifth
 * of all a request allocated was promoted, and each scavenge took 10-15 ms instead of about 1
 * (the cached retrieve's p99).
 */
class HandlerContext {
  constructor(
    readonly app: AppContext,
    readonly requestId: string,
    readonly principal: Principal | undefined,
    private readonly incoming: Incoming,
    private readonly requestLog: RequestLog,
  ) {}

  get request(): Request {
    return this.incoming.request;
  }

  header(name: string): string | null {
    return this.incoming.header(name);
  }

  get clientAddress(): string | undefined {
    const { trustedProxies, platformForwarding } = this.app.config;
    return clientAddress(
      this.incoming.peer,
      this.incoming.header("x-forwarded-for"),
      trustedProxies,
      platformForwarding,
    );
  }

  get log(): Logger {
    return this.requestLog.get();
  }
}

/**
 * The request's pino child, made on first use: a child costs more than the rest of a cached
 * lookup, and a successful request logs nothing at the default level.
 */
class RequestLog {
  private child: Logger | undefined;

  constructor(
    private readonly requestId: string,
    private readonly request: Incoming,
  ) {}

  get(): Logger {
    return (this.child ??= logger.child({
      requestId: this.requestId,
      method: this.request.method,
      path: this.request.pathname,
    }));
  }
}

function parseWith(schema: NonNullable<AnyRoute["body"]>, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SchemaValidationError(zodIssuesToFieldErrors(parsed.error));
  return parsed.data;
}

function parsePathParams(schema: NonNullable<AnyRoute["params"]>, raw: Record<string, string>): unknown {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const errors = zodIssuesToFieldErrors(parsed.error);
  const names = errors.map((e) => `${e.path} (${JSON.stringify(raw[e.path] ?? "")}: ${e.message})`).join(", ");
  throw new BadRequestError(`Invalid path parameter ${names}`, "invalid_path_parameter", errors);
}

function checkAdminToken(expected: string | undefined, header: string | null): void {
  if (!expected) {
    throw new ForbiddenError("The admin API is disabled; set ADMIN_TOKEN on the server to enable it", "admin_disabled");
  }
  const match = header ? /^Access\s+(\S+)\s*$/.exec(header.trim()) : null;
  if (!match) throw new UnauthorizedError("Send `Authorization: Access <ADMIN_TOKEN>`", "missing_credentials");
  const given = Buffer.from(match[1]);
  const wanted = Buffer.from(expected);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw new UnauthorizedError("Invalid admin token", "invalid_admin_token");
  }
}

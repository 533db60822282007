import type { z } from "zod";
import type { Principal } from "@/server/core/principal";
import type { ProjectRole } from "@/server/core/roles";
import type { RouteKeyScope } from "@/server/core/key-scopes";
import type { Logger } from "@/server/core/logger";
import type { AppContext } from "@/server/core/app-context";
import type { ErrorCode, HeaderDoc } from "@/server/core/errors";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/**
 * `api_key`: `Authorization: ApiKey`; `session`: the playground's session cookie (same-origin
 * requests only, acting in the session's selected project); `admin`: `Authorization: Access
 * <ADMIN_TOKEN>`; `none`: public.
 */
export type AuthMode = "api_key" | "session" | "admin" | "none";

export interface RequestContext<A extends AuthMode> {
  app: AppContext;
  requestId: string;
  log: Logger;
  request: Request;
  /** A request header, read without building the web `Request` (cheap on the hot path). */
  header(name: string): string | null;
  /** The client's address (the peer, or the trusted proxies' `X-Forwarded-For`); undefined when unknown. */
  readonly clientAddress: string | undefined;
  principal: A extends "api_key" | "session" ? Principal : undefined;
}

export interface HandlerInput<A extends AuthMode, B, Q, P> {
  ctx: RequestContext<A>;
  body: B;
  query: Q;
  params: P;
}

export interface RouteDefinition<A extends AuthMode = AuthMode, B = unknown, Q = unknown, P = Record<string, string>> {
  method: HttpMethod;
  /** OpenAPI-style template: `/api/keys/{id}/revoke`. */
  path: string;
  auth: A;
  /**
   * The least project role the caller's user needs (`api_key` and `session` routes). Unset: `viewer` for GET,
   * `member` for every other method, so a route that changes something is closed to viewers
   * unless it says it only reads (queries sent as POST).
   */
  role?: ProjectRole;
  /**
   * The narrow API-key scope that also admits this route (server/core/key-scopes.ts): `run` for
   * routes that run agents, `ingest` for routes that take in traces. Unset: `read` keys may call
   * it when its least role is viewer, otherwise only `full` keys.
   */
  keyScope?: RouteKeyScope;
  /** Cookie-authenticated changes: refuse cross-site requests (server/http/same-origin.ts). */
  sameOrigin?: boolean;
  summary: string;
  tag: string;
  body?: z.ZodType<B>;
  /**
   * For a handler that reads `ctx.request` itself (compressed or non-JSON bodies): documents the
   * body in OpenAPI only. The router reads no body for such a route.
   */
  rawBody?: { contentTypes: string[]; schema?: z.ZodType; description: string };
  query?: z.ZodType<Q>;
  /** Path parameters; a value that does not match is a 400 naming the parameter. */
  params?: z.ZodType<P>;
  /**
   * The success body's schema: the OpenAPI document's source, checked against every JSON answer
   * the test suites receive. Every route gives either this or `noJsonBody`.
   */
  response?: z.ZodType;
  /**
   * For a route whose success answer carries no JSON body (204, or a body of another media type):
   * what it sends instead, documented in OpenAPI in place of a schema.
   */
  noJsonBody?: { description: string; contentTypes?: string[] };
  /**
   * The error codes the handler itself can answer, sorted; the framework's own (authentication,
   * body, path parameters, the database safety net, 500: `route-errors.ts`) are not repeated.
   * The OpenAPI document lists them under their statuses, and every error answer a test receives
   * must carry one of them or a framework code (server/http/README.md).
   */
  errors?: readonly ErrorCode[];
  /**
   * Headers the success answer may carry besides the framework's (`X-Request-Id`), by name as
   * documented; every answer a test receives is checked against them (server/http/README.md).
   */
  headers?: Record<string, HeaderDoc>;
  /**
   * Error answers in OpenAI's shape (`{error: {message, type, param, code}}`, the /v1 door) instead
   * of the service's `{detail, code}`: documented so, and checked so.
   */
  errorShape?: "openai";
  /** Success status; 200 unless stated. */
  status?: number;
  /**
   * Other success answers the route gives, by status (a 202 for a background run beside the 200),
   * each with its body's schema or none.
   */
  otherSuccess?: Record<number, { description: string; response?: z.ZodType; headers?: Record<string, HeaderDoc> }>;
  maxBodyBytes?: number;
  /**
   * The handler only reads its body, and the route is read-heavy (retrieves): a small body sent
   * before is not parsed and validated again; requests with the same text share one frozen parsed
   * value (server/http/body-memo.ts).
   */
  memoizeBody?: boolean;
  /** Returns a JSON-serialisable value, or a Response (streams) that is passed through. */
  handler: (input: HandlerInput<A, B, Q, P>) => Promise<unknown>;
}

/** Identity function that gives the handler its inferred body, query and principal types. */
export function defineRoute<A extends AuthMode, B = undefined, Q = undefined, P = Record<string, string>>(
  route: RouteDefinition<A, B, Q, P>,
): RouteDefinition<A, B, Q, P> {
  return route;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table holds routes of every body, query and param type
export type AnyRoute = RouteDefinition<any, any, any, any>;

import { authenticateApiKey, resolveSession } from "@/server/auth";
import { createAuthHandler, isAuthPath, isAuthRequest } from "@/server/auth/auth-handler";
import type { AppContext } from "@/server/core/app-context";
import type { AuditActor } from "@/server/core/audit-actor";
import { recordWrite, replicasOf } from "@/server/db";
import { nodeIncoming, type NodeRequestHandler } from "@/server/http/node-incoming";
import { toResponse } from "@/server/http/reply";
import type { Incoming } from "@/server/http/incoming";
import { createRouter, type Authenticators, type RequestHandler } from "@/server/http/router";
import { webIncoming } from "@/server/http/web-incoming";
import { writeReply } from "@/server/http/write-reply";
import { bearerAsApiKey, openAiErrorReply, openAiRoutes } from "@/server/openai-compat";
import { a2aRoutes } from "@/server/a2a";
import { useEventTakers } from "@/server/events";
import { webhookTakers } from "@/server/webhooks";
import { queuesWork, workAfterResponse, type AfterResponse } from "./after-response";
import { isA2aPath, isOpenAiPath } from "./front";
import { allRoutes } from "./route-table";
import { forwardedOverTls, withSecureCookies } from "./secure-cookies";

export type { NodeRequestHandler };

/** The web door; `after` schedules work past the answer (Next.js's `after()`), else it starts at once. */
export type WebDoor = (request: Request, after?: AfterResponse) => Promise<Response>;

/** API keys and playground sessions, as the accounts area resolves them. */
const authenticators: Authenticators = {
  apiKey: (app, authorization) =>
    authenticateApiKey(app.db, authorization, app.now().getTime(), app.config.cacheTtlWithoutListenMs),
  session: (app, headers) => resolveSession(app, headers),
};

/**
 * The two doors into one route table: `web` for the Next.js route (next dev, Vercel, tests) and
 * `node` for the production server (server.ts). In both, `/api/auth/*` goes to better-auth and
 * every other path to the router. With WORKERS=after-response, an answer that may have queued
 * background work is followed by a bounded drain (after-response.ts): once the node door's
 * response has closed, or through the web door's `after`.
 */
export function createApiDoors(app: AppContext): { web: WebDoor; node: NodeRequestHandler } {
  // The outbox sits below webhooks: told who takes its events, it writes the read events nobody takes fanned out.
  useEventTakers(app.db, webhookTakers);
  // With read replicas, a change records its caller's write position before it is answered.
  const afterChange = replicasOf(app.db) ? (actor: AuditActor) => recordWrite(app.db, actor) : undefined;
  const api = createRouter(allRoutes, app, authenticators, { afterChange });
  // The OpenAI-compatible door: its own route table, OpenAI's error shape, `Bearer` keys.
  const openAi = createRouter(openAiRoutes, app, authenticators, {
    errorReply: openAiErrorReply,
    authorization: bearerAsApiKey,
    afterChange,
  });
  // The A2A door: A2A clients send the key as `Bearer` (the card's security scheme). Its JSON-RPC
  // calls are POSTs: each records its caller's write position like a REST change (a task started
  // over A2A is then read back, traces included, by that key from the primary or a caught-up replica).
  const a2a = createRouter(a2aRoutes, app, authenticators, { authorization: bearerAsApiKey, afterChange });
  const route = (incoming: Incoming) =>
    isOpenAiPath(incoming.pathname) ? openAi(incoming) : isA2aPath(incoming.pathname) ? a2a(incoming) : api(incoming);
  const authenticate = createAuthHandler(app);
  const drain = () => workAfterResponse(app);
  // How much of a body no route read is read and dropped so its client can read the answer: the
  // largest body a route accepts, twice (an upload a little over its limit still gets its 413).
  const drainLimit = 2 * Math.max(app.config.maxBodyBytes, app.config.tracing.maxBodyBytes);
  return {
    web: async (request, after = (task) => void task()) => {
      const answer = isAuthRequest(request) ? await authenticate(request) : await route(webIncoming(request));
      const overTls = forwardedOverTls(undefined, request.headers.get("x-forwarded-proto"), app.config);
      const response = toResponse(overTls ? withSecureCookies(answer) : answer);
      if (queuesWork(app, request.method, response.status)) after(drain);
      return response;
    },
    node: async (req, res) => {
      const incoming = nodeIncoming(req, res);
      const reply = isAuthPath(incoming.pathname)
        ? await authenticate(incoming.request, req.socket.remoteAddress)
        : await route(incoming);
      const proto = req.headers["x-forwarded-proto"];
      const overTls = typeof proto === "string" && forwardedOverTls(req.socket.remoteAddress, proto, app.config);
      writeReply(overTls ? withSecureCookies(reply) : reply, res, !incoming.settleBody(drainLimit));
      if (queuesWork(app, req.method ?? "GET", res.statusCode)) {
        if (res.closed) void drain();
        else res.once("close", () => void drain());
      }
    },
  };
}

export function createApiHandler(app: AppContext): RequestHandler {
  return createApiDoors(app).web;
}

import { authenticateApiKey, resolveSession } from "@/server/auth";
import { createAuthHandler, isAuthPath, isAuthRequest } from "@/server/auth/auth-handler";
import type { AppContext } from "@/server/core/app-context";
import { nodeIncoming, type NodeRequestHandler } from "@/server/http/node-incoming";
import { toResponse } from "@/server/http/reply";
import type { Incoming } from "@/server/http/incoming";
import { createRouter, type Authenticators, type RequestHandler } from "@/server/http/router";
import { webIncoming } from "@/server/http/web-incoming";
import { writeReply } from "@/server/http/write-reply";
import { bearerAsApiKey, openAiErrorReply, openAiRoutes } from "@/server/openai-compat";
import { isOpenAiPath } from "./front";
import { allRoutes } from "./route-table";

export type { NodeRequestHandler };

/** API keys and playground sessions, as the accounts area resolves them. */
const authenticators: Authenticators = {
  apiKey: (app, authorization) => authenticateApiKey(app.db, authorization),
  session: (app, headers) => resolveSession(app, headers),
};

/**
 * The two doors into one route table: `web` for the Next.js route (next dev, Vercel, tests) and
 * `node` for the production server (server.ts). In both, `/api/auth/*` goes to better-auth and
 * every other path to the router.
 */
export function createApiDoors(app: AppContext): { web: RequestHandler; node: NodeRequestHandler } {
  const api = createRouter(allRoutes, app, authenticators);
  // The OpenAI-compatible door: its own route table, OpenAI's error shape, `Bearer` keys.
  const openAi = createRouter(openAiRoutes, app, authenticators, {
    errorReply: openAiErrorReply,
    authorization: bearerAsApiKey,
  });
  const route = (incoming: Incoming) => (isOpenAiPath(incoming.pathname) ? openAi(incoming) : api(incoming));
  const authenticate = createAuthHandler(app);
  return {
    web: async (request) =>
      isAuthRequest(request) ? authenticate(request) : toResponse(await route(webIncoming(request))),
    node: async (req, res) => {
      const incoming = nodeIncoming(req, res);
      const reply = isAuthPath(incoming.pathname)
        ? await authenticate(incoming.request, req.socket.remoteAddress)
        : await route(incoming);
      writeReply(reply, res, !incoming.settleBody(app.config.maxBodyBytes));
    },
  };
}

export function createApiHandler(app: AppContext): RequestHandler {
  return createApiDoors(app).web;
}

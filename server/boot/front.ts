import type { IncomingMessage, ServerResponse } from "node:http";
import type { NodeRequestHandler } from "@/server/http/node-incoming";
import { logger } from "@/server/core/logger";

/**
 * Which door a path takes on the production server: the REST API, the services and the OpenAI door (/v1) go straight to
 * the router; the tRPC endpoint stays with Next.js (with pages and static files), where the
 * playground's own data path has always run.
 */
export function isRouterPath(path: string): boolean {
  if (path.startsWith("/services/") || isOpenAiPath(path) || isOAuthDiscoveryPath(path)) return true;
  if (!path.startsWith("/api/") && path !== "/api") return false;
  return !path.startsWith("/api/trpc/") && path !== "/api/trpc";
}

/** The A2A door (server/a2a): under /services, so the Next.js catch-all and `isRouterPath` already send it to the router. */
export function isA2aPath(path: string): boolean {
  return path.startsWith("/services/a2a/");
}

/** OAuth discovery for the MCP door (server/oauth): RFC 9728 and RFC 8414 metadata at the host's root. */
export function isOAuthDiscoveryPath(path: string): boolean {
  return path.startsWith("/.well-known/oauth-");
}

/** The OpenAI-compatible door (server/openai-compat). */
export function isOpenAiPath(path: string): boolean {
  return path.startsWith("/v1/") || path === "/v1";
}

/**
 * One node:http listener for both doors. A handler that throws still gets its client an answer.
 * Every answer of the router carries `apiHeaders` (server/core/security-headers.ts: set before the
 * handler runs, so errors, streams and better-auth's answers have them too); Next.js's answers get
 * theirs from proxy.ts.
 */
export function createFront(
  api: NodeRequestHandler,
  other: NodeRequestHandler,
  apiHeaders: Readonly<Record<string, string>> = {},
) {
  const headerList = Object.entries(apiHeaders);
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const routed = isRouterPath(q < 0 ? url : url.slice(0, q));
    if (routed) for (const [name, value] of headerList) res.setHeader(name, value);
    const handler = routed ? api : other;
    handler(req, res).catch((error: unknown) => {
      logger.error({ err: error, path: url }, "request failed outside the router");
      if (res.headersSent) res.destroy();
      else
        res
          .writeHead(500, { "content-type": "application/json; charset=utf-8" })
          .end('{"detail":"Internal server error","code":"internal_error"}');
    });
  };
}

import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { newId } from "@/server/core/ids";
import { logger } from "@/server/core/logger";
import type { AppContext } from "@/server/core/app-context";
import { errorResponse } from "@/server/http/error-response";
import { assertSameOrigin } from "@/server/http/same-origin";
import { createTRPCContext } from "./init";
import { appRouter } from "./root";

export const TRPC_ENDPOINT = "/api/trpc";

/**
 * The playground's tRPC endpoint over a given app: the route file and the HTTP tests share it.
 * Every POST is checked for its origin before tRPC reads it, whatever its content type; the
 * mutation middleware checks again for calls that arrive another way (server callers).
 */
export async function handleTRPCRequest(app: AppContext, req: Request): Promise<Response> {
  if (req.method !== "GET") {
    try {
      assertSameOrigin(req.headers, app.config.publicUrl);
    } catch (error) {
      const requestId = newId();
      return errorResponse(error, requestId, logger.child({ requestId, path: TRPC_ENDPOINT }));
    }
  }
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req,
    router: appRouter,
    createContext: () => createTRPCContext(app, req.headers),
  });
}

import { newId } from "@/server/core/ids";
import { logger } from "@/server/core/logger";
import type { AppContext } from "@/server/core/app-context";
import { errorResponse } from "@/server/http/error-response";
import type { RequestHandler } from "@/server/http/router";
import { assertSameOrigin } from "@/server/http/same-origin";
import { authFor } from "./auth-instance";
import { AUTH_BASE_PATH } from "./better-auth";

const AUTH_URL = new RegExp(`^https?://[^/]+${AUTH_BASE_PATH}/`);

export function isAuthRequest(request: Request): boolean {
  return AUTH_URL.test(request.url);
}

/** `isAuthRequest` for a bare path (the node:http door). */
export function isAuthPath(pathname: string): boolean {
  return pathname.startsWith(`${AUTH_BASE_PATH}/`);
}

/** better-auth's endpoints (sign-in, sign-out, session), behind the same CSRF rule as ours. */
export function createAuthHandler(app: AppContext): RequestHandler {
  return async (request) => {
    try {
      if (request.method !== "GET") assertSameOrigin(request.headers, app.config.publicUrl);
      return await (await authFor(app)).handler(request);
    } catch (error) {
      const requestId = newId();
      return errorResponse(error, requestId, logger.child({ requestId, path: new URL(request.url).pathname }));
    }
  };
}

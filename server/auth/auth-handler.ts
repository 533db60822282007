import { newId } from "@/server/core/ids";
import { logger } from "@/server/core/logger";
import type { AppContext } from "@/server/core/app-context";
import { errorResponse } from "@/server/http/error-response";
import { clientAddress } from "@/server/http/client-address";
import { assertSameOrigin } from "@/server/http/same-origin";
import { auditSignIn } from "./audit-sign-in";
import { authFor } from "./auth-instance";
import { AUTH_BASE_PATH, CLIENT_ADDRESS_HEADER, databaseFailureSeen } from "./better-auth";
import { credentialCheckFailure } from "@/server/db";

const SIGN_IN_PATH = new RegExp(`^${AUTH_BASE_PATH}/sign-in/`);
const AUTH_URL = new RegExp(`^https?://[^/]+${AUTH_BASE_PATH}/`);

export function isAuthRequest(request: Request): boolean {
  return AUTH_URL.test(request.url);
}

/** `isAuthRequest` for a bare path (the node:http door). */
export function isAuthPath(pathname: string): boolean {
  return pathname.startsWith(`${AUTH_BASE_PATH}/`);
}

/** better-auth's endpoints with the address of the client who sent them (`peer`: the socket's, when known). */
export type AuthHandler = (request: Request, peer?: string) => Promise<Response>;

/**
 * better-auth's endpoints (sign-in, sign-out, session), behind the same CSRF rule as ours. Its
 * rate limiter counts per client address, which it reads from one header set here (see
 * `clientAddress`): without it every stranger's failed sign-in would count against everyone. A
 * request during which the database failed is a 503 saying so, never better-auth's 401 or 500.
 */
export function createAuthHandler(app: AppContext): AuthHandler {
  return async (request, peer) => {
    try {
      if (request.method !== "GET") assertSameOrigin(request.headers, app.config.publicUrl);
      const { trustedProxies, platformForwarding } = app.config;
      const address = clientAddress(peer, request.headers.get("x-forwarded-for"), trustedProxies, platformForwarding);
      const headers = new Headers(request.headers);
      if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
      else headers.delete(CLIENT_ADDRESS_HEADER);
      const signIn = request.method === "POST" && SIGN_IN_PATH.test(new URL(request.url).pathname);
      const attempt = signIn
        ? await request
            .clone()
            .json()
            .catch(() => null)
        : null;
      const seen: { error?: unknown } = {};
      const auth = await authFor(app).catch((error: unknown) => {
        throw credentialCheckFailure(error, "The sign-in or session");
      });
      const response = await databaseFailureSeen.run(seen, () => auth.handler(new Request(request, { headers })));
      if (seen.error !== undefined && (response.status === 401 || response.status >= 500))
        throw credentialCheckFailure(seen.error, "The sign-in or session");
      if (signIn && typeof attempt?.email === "string" && response.status !== 429) {
        const answer = response.ok
          ? await response
              .clone()
              .json()
              .catch(() => null)
          : null;
        await auditSignIn(app.db, {
          email: attempt.email,
          succeeded: response.ok,
          userId: typeof answer?.user?.id === "string" ? answer.user.id : undefined,
          clientAddress: address,
        });
      }
      return response;
    } catch (error) {
      const requestId = newId();
      return errorResponse(error, requestId, logger.child({ requestId, path: new URL(request.url).pathname }));
    }
  };
}

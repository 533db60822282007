import { authenticateApiKey, type Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { ForbiddenError, isAppError, UnauthorizedError } from "@/server/core/errors";
import { authenticateOAuthToken } from "@/server/oauth";

/** Where a client finds how to get a token for this project's endpoint (RFC 9728, path inserted). */
export const resourceMetadataUrl = (baseUrl: string, projectId: string) =>
  `${baseUrl}/.well-known/oauth-protected-resource/api/mcp/${projectId}`;

/**
 * `Authorization: Bearer <token>`: a project API key (`sk_...`, its scopes apply) or an OAuth
 * access token issued for this project. A failure is 401 `mcp_unauthorized` with
 * `WWW-Authenticate` naming the resource metadata, which is how an OAuth-only client starts the
 * authorization flow; a credential of another project is 403.
 */
export async function authenticateMcp(
  app: AppContext,
  authorization: string | null,
  projectId: string,
  baseUrl: string,
): Promise<Principal> {
  const token = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim())?.[1] : undefined;
  const refuse = (detail: string) => {
    const error = new UnauthorizedError(detail, "mcp_unauthorized");
    error.headers = { "WWW-Authenticate": `Bearer resource_metadata="${resourceMetadataUrl(baseUrl, projectId)}"` };
    return error;
  };
  if (!token) throw refuse("Send `Authorization: Bearer <project API key or OAuth access token>`");
  let principal: Principal;
  try {
    principal = token.startsWith("sk_")
      ? await authenticateApiKey(app.db, `ApiKey ${token}`, app.now().getTime(), app.config.cacheTtlWithoutListenMs)
      : await authenticateOAuthToken(app.db, token, app.now());
  } catch (error) {
    if (isAppError(error) && error.status === 401) throw refuse(error.message);
    throw error;
  }
  if (principal.projectId !== projectId)
    throw new ForbiddenError("This credential belongs to another project than this MCP endpoint's", "wrong_project");
  return principal;
}

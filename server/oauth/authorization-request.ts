import { eq } from "drizzle-orm";
import { z } from "zod";
import { getProject, isProjectRole, memberRole } from "@/server/auth";
import { BadRequestError, ForbiddenError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { oauthClients, oauthCodes } from "@/server/db/schema";
import { OAUTH_SCOPES, type OAuthScope } from "./oauth-metadata";
import { hashSecret, newSecret } from "./token-material";

const CODE_TTL_MS = 10 * 60_000;

/** The query of `/oauth/authorize` (RFC 6749 4.1.1 with PKCE and RFC 8707 `resource`), as the consent page posts it back. */
export const authorizationRequest = z.object({
  response_type: z.literal("code", "response_type: only `code`"),
  client_id: z.uuid("client_id: the id dynamic registration returned"),
  redirect_uri: z.string().min(1),
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "code_challenge: PKCE S256, 43 base64url characters"),
  code_challenge_method: z.literal("S256", "code_challenge_method: only S256"),
  state: z.string().max(2000).optional(),
  scope: z.string().max(200).optional(),
  resource: z.string().max(2000).optional(),
});
export type AuthorizationRequest = z.infer<typeof authorizationRequest>;

/** What the consent page shows and what a grant is for. */
export interface AuthorizationFacts {
  clientName: string;
  projectId: string;
  projectName: string;
  scopes: OAuthScope[];
  redirectUri: string;
}

const PROJECT_OF_RESOURCE = /\/api\/mcp\/([0-9a-f-]{36})\/?$/;

/**
 * Checks an authorization request for a signed-in user: a registered client and one of its
 * redirect URIs, the MCP endpoint of a project the user is a member of (the resource), scopes
 * among `read` and `run` (both when none are asked). Refusals are 400 (403 for a project the user
 * is not a member of); the page shows them and never redirects to an unregistered URI.
 */
export async function checkAuthorization(
  db: Executor,
  request: AuthorizationRequest,
  user: { id: string; projectId?: string },
): Promise<AuthorizationFacts> {
  const [client] = await db.select().from(oauthClients).where(eq(oauthClients.id, request.client_id));
  if (!client) throw new BadRequestError(`client_id ${request.client_id} is not registered`, "invalid_oauth_request");
  if (!client.redirectUris.includes(request.redirect_uri))
    throw new BadRequestError("redirect_uri is not one the client registered", "invalid_oauth_request");
  const projectId = request.resource ? PROJECT_OF_RESOURCE.exec(request.resource)?.[1] : user.projectId;
  if (!projectId)
    throw new BadRequestError(
      "resource: a project's MCP endpoint, <service>/api/mcp/<project id>",
      "invalid_oauth_request",
    );
  const role = await memberRole(db, projectId, user.id);
  if (!role || !isProjectRole(role))
    throw new ForbiddenError("You are not a member of the project this client asks for", "wrong_project");
  const asked = request.scope ? request.scope.split(/\s+/).filter(Boolean) : [...OAUTH_SCOPES];
  const unknown = asked.filter((scope) => !(OAUTH_SCOPES as readonly string[]).includes(scope));
  if (unknown.length)
    throw new BadRequestError(`scope: ${unknown.join(", ")} unknown; ask for read and/or run`, "invalid_oauth_request");
  return {
    clientName: client.clientName ?? "An MCP client",
    projectId,
    projectName: (await getProject(db, projectId)).name,
    scopes: asked as OAuthScope[],
    redirectUri: request.redirect_uri,
  };
}

/** The URL the browser goes to with the user's answer: a fresh single-use code, or `access_denied`. */
export async function answerAuthorization(
  db: Executor,
  request: AuthorizationRequest,
  user: { id: string; projectId?: string },
  allow: boolean,
  now: Date,
): Promise<string> {
  const facts = await checkAuthorization(db, request, user);
  const target = new URL(facts.redirectUri);
  if (request.state !== undefined) target.searchParams.set("state", request.state);
  if (!allow) {
    target.searchParams.set("error", "access_denied");
    return target.toString();
  }
  const code = newSecret("mcpac_");
  await db.insert(oauthCodes).values({
    codeHash: hashSecret(code),
    clientId: request.client_id,
    projectId: facts.projectId,
    userId: user.id,
    redirectUri: request.redirect_uri,
    codeChallenge: request.code_challenge,
    scopes: facts.scopes,
    resource: request.resource ?? null,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
  });
  target.searchParams.set("code", code);
  return target.toString();
}

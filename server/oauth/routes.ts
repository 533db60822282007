import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";
import { defineRoute } from "@/server/http/route";
import { answerAuthorization, authorizationRequest } from "./authorization-request";
import { baseUrlOf } from "./base-url";
import { exchangeToken, tokenRequest, tokenWire } from "./exchange-token";
import { authorizationServerMetadata, protectedResourceMetadata } from "./oauth-metadata";
import { clientRegistrationInput, clientRegistrationWire, registerClient } from "./register-client";
import { limitRegistration } from "./registration-limit";
import { revokeRequest, revokeToken } from "./revoke-token";

const TAG = "oauth";

const protectedResourceWire = z.strictObject({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
  resource_name: z.string(),
});

const authorizationServerWire = z.strictObject({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  registration_endpoint: z.string(),
  revocation_endpoint: z.string(),
  revocation_endpoint_auth_methods_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
});

/** The MCP authorization flow: discovery, dynamic registration, the consent's answer, the token endpoint. */
export const oauthRoutes = [
  defineRoute({
    method: "GET",
    path: "/.well-known/oauth-protected-resource/api/mcp/{project_id}",
    auth: "none",
    tag: TAG,
    summary: "RFC 9728 protected resource metadata of a project's MCP endpoint: this service authorizes it",
    params: z.strictObject({ project_id: z.uuid("project_id: the project's id (a UUID)") }),
    response: protectedResourceWire,
    handler: async ({ ctx, params }) => protectedResourceMetadata(baseUrlOf(ctx.app, ctx.request), params.project_id),
  }),
  defineRoute({
    method: "GET",
    path: "/.well-known/oauth-authorization-server",
    auth: "none",
    tag: TAG,
    summary: "RFC 8414 authorization server metadata: OAuth 2.1, authorization code with PKCE (S256), public clients",
    response: authorizationServerWire,
    handler: async ({ ctx }) => authorizationServerMetadata(baseUrlOf(ctx.app, ctx.request)),
  }),
  defineRoute({
    method: "POST",
    path: "/api/oauth/register",
    auth: "none",
    tag: TAG,
    summary:
      "RFC 7591 dynamic client registration of a public client (no secret; PKCE proves the requester); at most 20 per client address per hour",
    body: clientRegistrationInput,
    response: clientRegistrationWire,
    status: 201,
    errors: ["rate_limited"],
    handler: async ({ ctx, body }) => {
      await limitRegistration(ctx.app, ctx.clientAddress);
      return registerClient(ctx.app.db, body, ctx.app.now());
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/oauth/authorize",
    auth: "session",
    role: "viewer",
    sameOrigin: true,
    tag: TAG,
    summary:
      "The consent page's answer for the signed-in user: where to send the browser (the client's redirect_uri with a single-use code, or access_denied)",
    body: authorizationRequest.extend({ decision: z.enum(["allow", "deny"]) }),
    response: z.strictObject({ redirect_to: z.string() }),
    errors: ["invalid_oauth_request", "wrong_project"],
    handler: async ({ ctx, body }) => ({
      redirect_to: await answerAuthorization(
        ctx.app.db,
        body,
        { id: ctx.principal.userId, projectId: ctx.principal.projectId },
        body.decision === "allow",
        ctx.app.now(),
      ),
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/api/oauth/token",
    auth: "none",
    tag: TAG,
    summary:
      "OAuth token endpoint (form-encoded): an authorization code with its PKCE verifier, or a refresh token (rotated)",
    rawBody: { contentTypes: ["application/x-www-form-urlencoded"], description: "RFC 6749 token request" },
    response: tokenWire,
    errors: ["invalid_grant"],
    handler: async ({ ctx }) => {
      const form = Object.fromEntries(new URLSearchParams(await ctx.request.text()));
      const parsed = tokenRequest.safeParse(form);
      if (!parsed.success)
        throw new BadRequestError(
          `Token request: ${parsed.error.issues.map((i) => `${i.path.join(".") || "grant_type"}: ${i.message}`).join("; ")}`,
          "invalid_grant",
        );
      return exchangeToken(ctx.app.db, parsed.data, ctx.app.now());
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/oauth/revoke",
    auth: "none",
    tag: TAG,
    summary:
      "RFC 7009 token revocation (form-encoded: token, token_type_hint, client_id): the grant's access and refresh tokens stop working; an unknown token is not an error",
    rawBody: { contentTypes: ["application/x-www-form-urlencoded"], description: "RFC 7009 revocation request" },
    // RFC 7009 answers 200 (not 204) with an empty document.
    response: z.strictObject({}),
    errors: ["invalid_grant"],
    handler: async ({ ctx }) => {
      const parsed = revokeRequest.safeParse(Object.fromEntries(new URLSearchParams(await ctx.request.text())));
      if (!parsed.success)
        throw new BadRequestError(
          `Revocation request: ${parsed.error.issues.map((i) => `${i.path.join(".") || "token"}: ${i.message}`).join("; ")}`,
          "invalid_grant",
        );
      await revokeToken(ctx.app.db, parsed.data, ctx.app.now());
      return {};
    },
  }),
];

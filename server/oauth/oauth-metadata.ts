/** The scopes a client may ask for: an API key's `read` (list) and `run` (call tools). */
export const OAUTH_SCOPES = ["read", "run"] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** The MCP endpoint a token is for (RFC 8707 `resource`): one project's. */
export const mcpResource = (baseUrl: string, projectId: string) => `${baseUrl}/api/mcp/${projectId}`;

/** RFC 9728: where the project's MCP endpoint gets its tokens (this service), and what it takes. */
export function protectedResourceMetadata(baseUrl: string, projectId: string) {
  return {
    resource: mcpResource(baseUrl, projectId),
    authorization_servers: [baseUrl],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Agent service MCP server",
  };
}

/** RFC 8414: the service as an OAuth 2.1 authorization server (public clients, PKCE S256, dynamic registration). */
export function authorizationServerMetadata(baseUrl: string) {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}/oauth/authorize`,
    token_endpoint: `${baseUrl}/api/oauth/token`,
    registration_endpoint: `${baseUrl}/api/oauth/register`,
    revocation_endpoint: `${baseUrl}/api/oauth/revoke`,
    revocation_endpoint_auth_methods_supported: ["none"],
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["none"],
    code_challenge_methods_supported: ["S256"],
  };
}

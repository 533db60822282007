import { invalid, type CorpusCase } from "./corpus-case";

const URL = "https://mcp.example.com/mcp";
const server = (extra: Record<string, unknown>) => ({ mcps: [{ name: "docs", connection: { url: URL }, ...extra }] });
const connection = (extra: Record<string, unknown>) => server({ connection: { url: URL, ...extra } });
const policy = (tools: Record<string, unknown>) => server({ policy: { tools } });

export const mcpCases: CorpusCase[] = [
  invalid("reserved MCP name", server({ name: "agenta-tools" }), ["mcps[0].name", '"agenta-tools" is reserved']),
  invalid("MCP name with a space", server({ name: "my server" }), [
    "mcps[0].name",
    'only letters, digits, ".", "_" and "-"',
  ]),
  invalid("MCP name with a slash", server({ name: "a/b" }), ["mcps[0].name", "only letters, digits"]),
  invalid("empty MCP name", server({ name: "" }), ["mcps[0].name", "must not be empty"]),
  invalid("MCP name of 129 characters", server({ name: "n".repeat(129) }), ["mcps[0].name", "at most 128 characters"]),
  invalid("MCP without name", { mcps: [{ connection: { url: URL } }] }, ["mcps[0].name", "is required"]),
  invalid("MCP without connection", { mcps: [{ name: "docs" }] }, ["mcps[0].connection", "is required"]),
  invalid("MCP connection without url", server({ connection: {} }), ["mcps[0].connection.url", "is required"]),
  invalid("MCP url that is not http", connection({ url: "ftp://files.example.com" }), [
    "mcps[0].connection.url",
    "http:// or https://",
  ]),
  invalid("MCP stdio transport", connection({ type: "stdio" }), [
    "mcps[0].connection.type",
    'must be "http"; got "stdio"',
  ]),
  invalid("MCP stdio command", connection({ command: "npx" }), [
    "mcps[0].connection.command",
    "allowed keys: type, url, headers, credentials",
  ]),
  invalid("MCP header value not a string", connection({ headers: { "X-Team": 1 } }), [
    "mcps[0].connection.headers.X-Team",
    "must be a string",
  ]),
  invalid("MCP header name with a space", connection({ headers: { "X Team": "a" } }), [
    "mcps[0].connection.headers.X Team",
    "not a valid HTTP header name",
  ]),
  invalid("unknown credentials type", connection({ credentials: { type: "oauth" } }), [
    "mcps[0].connection.credentials.type",
    "must be one of none, header_secret_refs",
  ]),
  invalid("header_secret_refs without headers", connection({ credentials: { type: "header_secret_refs" } }), [
    "mcps[0].connection.credentials.headers",
    "is required",
  ]),
  invalid("credentials none with headers", connection({ credentials: { type: "none", headers: {} } }), [
    "mcps[0].connection.credentials.headers",
    "allowed keys: type",
  ]),
  invalid(
    "secret ref under an invalid header name",
    connection({ credentials: { type: "header_secret_refs", headers: { "Bad:Header": "s" } } }),
    ["mcps[0].connection.credentials.headers.Bad:Header", "not a valid HTTP header name"],
  ),
  invalid(
    "secret ref that is empty",
    connection({ credentials: { type: "header_secret_refs", headers: { Authorization: "" } } }),
    ["mcps[0].connection.credentials.headers.Authorization", "must not be empty"],
  ),
  invalid("include without names", policy({ mode: "include" }), [
    "mcps[0].policy.tools.names",
    'at least one tool when tools.mode is "include"',
  ]),
  invalid("include with empty names", policy({ mode: "include", names: [] }), [
    "mcps[0].policy.tools.names",
    "at least one tool",
  ]),
  invalid("names with mode all", policy({ mode: "all", names: ["search"] }), [
    "mcps[0].policy.tools.names",
    'only valid with tools.mode "include"',
  ]),
  invalid("names with default mode", policy({ names: ["search"] }), [
    "mcps[0].policy.tools.names",
    'only valid with tools.mode "include"',
  ]),
  invalid("include with an empty tool name", policy({ mode: "include", names: [""] }), [
    "mcps[0].policy.tools.names[0]",
    "must not be empty",
  ]),
  invalid("unknown tools mode", policy({ mode: "exclude", names: ["x"] }), [
    "mcps[0].policy.tools.mode",
    "must be one of all, include",
  ]),
  invalid("policy permission outside the set", server({ policy: { permission: "allow_reads" } }), [
    "mcps[0].policy.permission",
    "must be one of allow, ask, deny",
  ]),
  invalid("policy unknown key", server({ policy: { tools: {}, allow: ["x"] } }), [
    "mcps[0].policy.allow",
    "allowed keys: tools, permission",
  ]),
  invalid("MCP entry unknown key", server({ secrets: {} }), [
    "mcps[0].secrets",
    "allowed keys: name, connection, policy",
  ]),
];

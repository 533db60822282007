/** What to paste into each client, for a project's MCP endpoint and an agent's A2A card. */
export interface ClientConfig {
  client: string;
  where: string;
  text: string;
}

const KEY = "<your API key>";

/** The MCP clients' configuration files for the project's one MCP endpoint (every exposed agent is a tool). */
export function mcpConfigs(mcpUrl: string, serverName: string): ClientConfig[] {
  const headers = { Authorization: `Bearer ${KEY}` };
  return [
    {
      client: "Claude Desktop",
      where: "claude_desktop_config.json (Settings → Developer → Edit config)",
      text: JSON.stringify(
        {
          mcpServers: {
            [serverName]: {
              command: "npx",
              args: ["-y", "mcp-remote", mcpUrl, "--header", `Authorization: Bearer ${KEY}`],
            },
          },
        },
        null,
        2,
      ),
    },
    {
      client: "Cursor",
      where: "~/.cursor/mcp.json (or .cursor/mcp.json in a project)",
      text: JSON.stringify({ mcpServers: { [serverName]: { url: mcpUrl, headers } } }, null, 2),
    },
    {
      client: "VS Code",
      where: ".vscode/mcp.json",
      text: JSON.stringify({ servers: { [serverName]: { type: "http", url: mcpUrl, headers } } }, null, 2),
    },
  ];
}

export const mcpEndpoint = (origin: string, projectId: string) => `${origin}/api/mcp/${projectId}`;

export const a2aEndpoint = (origin: string, projectId: string, name: string) =>
  `${origin}/services/a2a/v0/${projectId}/${name}`;

export const agentCardUrl = (origin: string, projectId: string, name: string) =>
  `${a2aEndpoint(origin, projectId, name)}/.well-known/agent-card.json`;

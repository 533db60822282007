export { connectMcpTools, type McpRender, type McpToolset, type McpToolsOptions } from "./mcp-tools";
export { mcpToolName } from "./mcp-tool-name";

export { agentTemplateSchema, type AgentTemplate, type AgentTemplateInput } from "./agent-template";
export { DEFAULT_AGENTS_MD, DEFAULT_MODEL, DEFAULT_PROVIDER } from "./builtin-defaults";
export { EMBED_KEY, isEmbedReference } from "./embed-reference";
export { HARNESS_KINDS, type HarnessKind } from "./harness";
export { CONNECTION_MODES, type ConnectionMode } from "./llm-connection";
export { RESERVED_MCP_NAME, type McpServer } from "./mcp-server";
export { TOOL_PERMISSIONS, type ToolPermission } from "./permission";
export { RUNNER_PERMISSION_DEFAULTS, type RunnerPermissionDefault } from "./runner";
export { SANDBOX_KINDS, type SandboxKind } from "./sandbox";
export { type Skill } from "./skill";
export {
  BUILTIN_TOOL_NAMES,
  DEFAULT_GATEWAY_PROVIDER,
  READ_ONLY_BUILTIN_TOOL_NAMES,
  type BuiltinToolName,
  type ToolEntry,
  type ToolType,
} from "./tools";

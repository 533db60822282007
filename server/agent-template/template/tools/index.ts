export { BUILTIN_TOOL_NAMES, READ_ONLY_BUILTIN_TOOL_NAMES, type BuiltinToolName } from "./builtin-tool-names";
export { DEFAULT_GATEWAY_PROVIDER } from "./gateway-tool";
export { toolEntrySchema, type ToolEntry, type ToolType } from "./tool-entry";

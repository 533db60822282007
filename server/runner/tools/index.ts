export { clientToolFactory } from "./client-tool";
export { defaultToolRegistry } from "./default-registry";
export { ToolRegistry, type BuiltTools, type RegisteredTool, type ToolBuildContext, type ToolFactory, type ToolKind } from "./tool-registry";

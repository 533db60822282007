export { builtinToolFactory, capResult } from "./builtin";
export { clientToolFactory } from "./client-tool";
export { codeToolFactory, secretEnvName } from "./code";
export { defaultToolRegistry } from "./default-registry";
export {
  DENIED_BY_POLICY,
  DENIED_UNATTENDED,
  ToolRegistry,
  type BuiltTools,
  type RegisteredTool,
  type ToolBuildContext,
  type ToolFactory,
  type ToolKind,
  type ToolPolicy,
  type UnattendedMode,
} from "./tool-registry";

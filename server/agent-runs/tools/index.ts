export { builtinToolFactory } from "./builtin";
export { capOutput, capResult } from "./cap-result";
export { clientToolFactory } from "./client-tool";
export {
  codeToolFactory,
  nodeRuntime,
  pythonProgram,
  pythonRuntime,
  PYTHON_HEAP_MB,
  RESULT_MARKER,
  secretEnvName,
  type CodeLimits,
} from "./code";
export { defaultToolRegistry } from "./default-registry";
export {
  ComposioProvider,
  GATEWAY_SETUP,
  gatewayProviders,
  type GatewayAction,
  type GatewayActionSpec,
  type GatewayProvider,
} from "./gateway";
export { referenceToolFactory } from "./reference";
export { DENIED_BY_POLICY, DENIED_UNATTENDED, ToolRegistry } from "./tool-registry";
export type {
  BuiltTools,
  NestedRunRequest,
  RegisteredTool,
  RunScope,
  ToolBuildContext,
  ToolFactory,
  ToolKind,
  ToolPolicy,
  UnattendedMode,
} from "./tool-types";

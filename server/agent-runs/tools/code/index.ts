export { codeToolFactory, secretEnvName } from "./code-tool-factory";
export type { CodeLimits } from "./code-runner";
export { nodeRuntime } from "./node-runner";
export { pythonProgram, pythonRuntime, PYTHON_HEAP_MB } from "./python-runner";
export { RESULT_MARKER } from "./sandbox-program";

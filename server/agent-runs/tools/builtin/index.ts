export { builtinToolFactory } from "./builtin-tool-factory";
export { BUILTIN_TOOLS, type BuiltinDefinition } from "./builtin-tools";

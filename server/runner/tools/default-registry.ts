import { builtinToolFactory } from "./builtin";
import { clientToolFactory } from "./client-tool";
import { codeToolFactory } from "./code";
import { ToolRegistry } from "./tool-registry";

/** The tool types this deployment runs; later issues register reference and MCP tools here. */
export function defaultToolRegistry(): ToolRegistry {
  return new ToolRegistry().register("client", clientToolFactory).register("builtin", builtinToolFactory).register("code", codeToolFactory);
}

import { builtinToolFactory } from "./builtin";
import { clientToolFactory } from "./client-tool";
import { ToolRegistry } from "./tool-registry";

/** The tool types this deployment runs; later issues register reference and MCP tools here. */
export function defaultToolRegistry(): ToolRegistry {
  return new ToolRegistry().register("client", clientToolFactory).register("builtin", builtinToolFactory);
}

import { clientToolFactory } from "./client-tool";
import { ToolRegistry } from "./tool-registry";

/** The tool types this deployment runs; later issues register builtin, reference and MCP tools here. */
export function defaultToolRegistry(): ToolRegistry {
  return new ToolRegistry().register("client", clientToolFactory);
}

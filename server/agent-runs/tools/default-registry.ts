import { builtinToolFactory } from "./builtin";
import { clientToolFactory } from "./client-tool";
import { codeToolFactory } from "./code";
import { gatewayToolFactory } from "./gateway";
import { platformToolFactory } from "./platform";
import { referenceToolFactory } from "./reference";
import { ToolRegistry } from "./tool-registry";

/** The tool types this deployment runs; later issues register MCP tools here. */
export function defaultToolRegistry(): ToolRegistry {
  return new ToolRegistry()
    .register("client", clientToolFactory)
    .register("builtin", builtinToolFactory)
    .register("code", codeToolFactory)
    .register("reference", referenceToolFactory)
    .register("platform", platformToolFactory)
    .register("gateway", gatewayToolFactory);
}

import { agentTemplateSchema, DEFAULT_MODEL, DEFAULT_PROVIDER, type AgentTemplate } from "../template";

/**
 * What a new agent starts with (the interface contract "Default template"), fully defaulted. It differs
 * from the schema's own defaults on purpose: an omitted `tools` grants nothing, while a new
 * agent ships with four built-ins, and the provider is named rather than inferred.
 */
export function defaultAgentTemplate(): AgentTemplate {
  return agentTemplateSchema.parse({
    llm: { provider: DEFAULT_PROVIDER, model: DEFAULT_MODEL },
    tools: ["read", "bash", "edit", "write"].map((name) => ({ type: "builtin", name })),
    mcps: [],
    harness: { kind: "core_harness" },
    runner: { kind: "sidecar", permissions: { default: "allow_reads" } },
    sandbox: { kind: "local" },
  });
}

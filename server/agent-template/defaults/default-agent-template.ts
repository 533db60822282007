import { DEFAULT_AGENTS_MD, DEFAULT_MODEL, DEFAULT_PROVIDER, type AgentTemplateInput } from "../template";

/** The model a new agent runs on: a provider's model, or a model a stored custom provider lists. */
export type StartingModel = { provider: string; model: string } | { connection: { slug: string }; model: string };

/**
 * What a new agent starts with (the interface contract "Default template"): the fields a person would set,
 * not the schema's expansion of them (`extras: {}`, `render: null`, ...), so a revision made in the
 * playground has the shape of one sent over the API, and diffs show only what someone chose. It
 * differs from the schema's defaults on purpose: an omitted `tools` grants nothing, while a new
 * agent ships with four built-ins, and the provider is named rather than inferred.
 */
export function defaultAgentTemplate(llm: StartingModel = { provider: DEFAULT_PROVIDER, model: DEFAULT_MODEL }) {
  return {
    instructions: { agents_md: DEFAULT_AGENTS_MD },
    llm,
    tools: (["read", "bash", "edit", "write"] as const).map((name) => ({ type: "builtin" as const, name })),
    mcps: [],
    harness: { kind: "core_harness" as const },
    runner: { kind: "sidecar" as const, permissions: { default: "allow_reads" as const } },
    sandbox: { kind: "local" as const },
  } satisfies AgentTemplateInput;
}

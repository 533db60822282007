import { SchemaValidationError } from "@/server/core/errors";

/**
 * What the optimizer changes in a revision's data, for the two kinds it optimizes: an agent
 * (workflow, `data.parameters.agent`: instructions in `instructions.agents_md`, model in `llm`) and
 * a prompt application (`data.parameters.prompt`: instructions are the system message, model and
 * sampling in `llm_config`). Everything else in the data is kept as it is.
 */
export type BaseKind = "workflow" | "application";

export interface Sampling {
  temperature?: number;
  top_p?: number;
}

export interface Editable {
  instructions: string;
  model: string;
  sampling: Sampling;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === "object" ? (value as Json) : {});

/** The kind of a revision's data, or undefined when it is neither an agent nor a prompt. */
export function kindOf(data: Json | undefined): BaseKind | undefined {
  const parameters = obj(data?.parameters);
  if (parameters.agent && typeof parameters.agent === "object") return "workflow";
  if (parameters.prompt && typeof parameters.prompt === "object") return "application";
  return undefined;
}

const SYSTEM = new Set(["system", "developer"]);

export function readEditable(kind: BaseKind, data: Json): Editable {
  const parameters = obj(data.parameters);
  if (kind === "workflow") {
    const agent = obj(parameters.agent);
    const llm = obj(agent.llm);
    const model = String(llm.model ?? "");
    return {
      instructions: String(obj(agent.instructions).agents_md ?? ""),
      model: llm.provider ? `${String(llm.provider)}/${model}` : model,
      sampling: {},
    };
  }
  const prompt = obj(parameters.prompt);
  const config = obj(prompt.llm_config);
  const messages = (Array.isArray(prompt.messages) ? prompt.messages : []) as { role: string; content: string }[];
  return {
    instructions: messages.find((m) => SYSTEM.has(m.role))?.content ?? "",
    model: String(config.model ?? ""),
    sampling: {
      ...(typeof config.temperature === "number" ? { temperature: config.temperature } : {}),
      ...(typeof config.top_p === "number" ? { top_p: config.top_p } : {}),
    },
  };
}

/** The data with `change` applied; a prompt without a system message gets one first. */
export function writeEditable(kind: BaseKind, data: Json, change: Partial<Editable>): Json {
  const parameters = obj(data.parameters);
  if (kind === "workflow") {
    const agent = obj(parameters.agent);
    const llm = obj(agent.llm);
    const slash = change.model?.indexOf("/") ?? -1;
    return {
      ...data,
      parameters: {
        ...parameters,
        agent: {
          ...agent,
          ...(change.instructions !== undefined
            ? { instructions: { ...obj(agent.instructions), agents_md: change.instructions } }
            : {}),
          ...(change.model !== undefined
            ? {
                llm: llm.provider
                  ? { ...llm, provider: change.model.slice(0, slash), model: change.model.slice(slash + 1) }
                  : { ...llm, model: change.model },
              }
            : {}),
        },
      },
    };
  }
  const prompt = obj(parameters.prompt);
  let messages = (Array.isArray(prompt.messages) ? prompt.messages : []) as { role: string; content: string }[];
  if (change.instructions !== undefined) {
    const at = messages.findIndex((m) => SYSTEM.has(m.role));
    messages =
      at < 0
        ? [{ role: "system", content: change.instructions }, ...messages]
        : messages.map((m, i) => (i === at ? { ...m, content: change.instructions! } : m));
  }
  return {
    ...data,
    parameters: {
      ...parameters,
      prompt: {
        ...prompt,
        messages,
        llm_config: {
          ...obj(prompt.llm_config),
          ...(change.model !== undefined ? { model: change.model } : {}),
          ...(change.sampling ?? {}),
        },
      },
    },
  };
}

/** Refuses a base the optimizer cannot change, naming what it needs. */
export function requireKind(revisionId: string, data: Json | undefined): BaseKind {
  const kind = kindOf(data);
  if (!kind)
    throw new SchemaValidationError(
      [{ path: "base_revision_id", message: "not an agent or a prompt application revision" }],
      `revision ${revisionId} carries neither an agent (data.parameters.agent) nor a prompt (data.parameters.prompt): the optimizer changes one of those`,
    );
  return kind;
}

const DEMOS_START = "\n\n## Examples\n";

/** Instructions with a demonstrations section (replacing one a parent already had). */
export function withDemonstrations(instructions: string, demos: { input: unknown; output: unknown }[]): string {
  const cut = instructions.indexOf(DEMOS_START);
  const base = cut < 0 ? instructions : instructions.slice(0, cut);
  const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
  const shown = demos.map((d, i) => `Example ${i + 1}\nInput: ${text(d.input)}\nOutput: ${text(d.output)}`);
  return `${base}${DEMOS_START}${shown.join("\n\n")}`;
}

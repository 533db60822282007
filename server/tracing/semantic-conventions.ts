import { getPath, isObject, setPath, type JsonObject } from "./attributes";
import type { SpanType } from "./span-record";
import { jsonDepthWithin } from "@/server/core/json-depth";
import type { TokenKind } from "@/server/pricing";

/**
 * Attributes of the OpenTelemetry GenAI semantic conventions (`gen_ai.*`), the AI SDK's telemetry
 * (`ai.*`), OpenInference (`input.value`, `llm.*`) and OpenLLMetry (`traceloop.*`, with `gen_ai.*`
 * on its model calls) are mapped onto the same `ag` fields our
 * own spans use: `ag.data.{inputs,outputs,parameters}`, `ag.meta.{system,request.model,...}`
 * and `ag.metrics.tokens.incremental`. Small attributes (model, usage, operation) also stay as
 * they came; content (messages, prompts, outputs, tool arguments and results) is moved, not
 * copied, so the bulk of a span is stored and indexed once. Values the span already has under
 * `ag` win (and then the originals stay). Runs on unmarshalled (nested) attributes; returns the
 * span type the conventions imply, if any.
 */
export function mapSemanticConventions(attributes: JsonObject): SpanType | undefined {
  const target = new AgWriter(attributes);
  let type: SpanType | undefined;
  if (isObject(attributes.gen_ai)) type = mapGenAi(attributes.gen_ai, target) ?? type;
  if (isObject(attributes.ai)) type = mapAiSdk(attributes.ai, attributes, target) ?? type;
  type = mapOpenInference(attributes, target) ?? type;
  type = mapOpenLlmetry(attributes, target) ?? type;
  target.finish();
  return type;
}

class AgWriter {
  private readonly moved: string[][] = [];
  constructor(private readonly attributes: JsonObject) {}
  /** Sets `ag.<path>` unless the span already has a value there; true when it was set. */
  set(path: string, value: unknown): boolean {
    if (value === undefined || value === null) return false;
    const parts = ["ag", ...path.split(".")];
    if (getPath(this.attributes, parts) !== undefined) return false;
    setPath(this.attributes, parts, value);
    return true;
  }
  /** Sets `ag.<path>` and, when it was set, removes the original attributes it came from. */
  move(path: string, value: unknown, ...sources: string[][]): void {
    if (this.set(path, value)) this.moved.push(...sources);
  }
  /** Removes the moved originals (after every mapping has read them), and parents left empty. */
  finish(): void {
    for (const source of this.moved) deletePath(this.attributes, source);
  }
}

function deletePath(obj: JsonObject, path: string[]): void {
  const parents: JsonObject[] = [];
  let node: unknown = obj;
  for (const part of path.slice(0, -1)) {
    if (!isObject(node)) return;
    parents.push(node);
    node = node[part];
  }
  if (!isObject(node)) return;
  delete node[path[path.length - 1]];
  for (let i = path.length - 2; i >= 0; i--) {
    const child = parents[i][path[i]];
    if (isObject(child) && Object.keys(child).length === 0) delete parents[i][path[i]];
    else break;
  }
}

const GEN_AI_OPERATIONS: Record<string, SpanType> = {
  chat: "chat",
  text_completion: "completion",
  generate_content: "chat",
  embeddings: "embedding",
  execute_tool: "tool",
  invoke_agent: "agent",
  create_agent: "agent",
};

/** Operations whose own usage is the model call's (not a total over children). */
const MODEL_CALLS = new Set(["chat", "text_completion", "generate_content", "embeddings"]);

function mapGenAi(g: JsonObject, ag: AgWriter): SpanType | undefined {
  const operation = str(getPath(g, ["operation", "name"]));
  ag.set("meta.system", str(getPath(g, ["provider", "name"])) ?? str(g.system));
  ag.set("meta.request.model", str(getPath(g, ["request", "model"])));
  ag.set("meta.response.model", str(getPath(g, ["response", "model"])));
  ag.set("meta.response.id", str(getPath(g, ["response", "id"])));
  const finish = getPath(g, ["response", "finish_reasons"]);
  if (finish !== undefined) ag.set("meta.response.finish_reasons", Array.isArray(finish) ? finish : [finish]);
  ag.set("meta.agent.name", str(getPath(g, ["agent", "name"])));
  ag.set("meta.agent.id", str(getPath(g, ["agent", "id"])));
  ag.set("meta.conversation.id", str(getPath(g, ["conversation", "id"])));
  ag.set("meta.tool.name", str(getPath(g, ["tool", "name"])));
  ag.set("meta.tool.call_id", str(getPath(g, ["tool", "call", "id"])));

  const params: JsonObject = {};
  const request = getPath(g, ["request"]);
  if (isObject(request)) {
    for (const [k, v] of Object.entries(request)) if (k !== "model") params[k] = v;
  }
  if (Object.keys(params).length > 0) ag.set("data.parameters", params);

  const G = (...path: string[]) => ["gen_ai", ...path];
  const inputMessages = messages(getPath(g, ["input", "messages"])) ?? indexedMessages(g.prompt);
  const system = parseMaybeJson(g.system_instructions);
  if (inputMessages || system !== undefined) {
    ag.move(
      "data.inputs",
      { ...(system !== undefined ? { system } : {}), ...(inputMessages ? { messages: inputMessages } : {}) },
      G("input", "messages"),
      G("prompt"),
      G("system_instructions"),
    );
  }
  const outputMessages = messages(getPath(g, ["output", "messages"])) ?? indexedMessages(g.completion);
  if (outputMessages) ag.move("data.outputs", { messages: outputMessages }, G("output", "messages"), G("completion"));
  const toolArgs = getPath(g, ["tool", "call", "arguments"]);
  if (toolArgs !== undefined)
    ag.move("data.inputs", asInputs(parseMaybeJson(toolArgs)), G("tool", "call", "arguments"));
  const toolResult = getPath(g, ["tool", "call", "result"]);
  if (toolResult !== undefined) ag.move("data.outputs", parseMaybeJson(toolResult), G("tool", "call", "result"));

  if (operation === undefined || MODEL_CALLS.has(operation)) {
    const usage = getPath(g, ["usage"]);
    if (isObject(usage)) {
      // Cache attributes: the conventions' `cache_read.input_tokens` / `cache_creation.input_tokens`
      // (parts of input_tokens), and the older flat and dotted spellings exporters still send.
      const at = (...path: string[]) => num(getPath(usage, path));
      setTokens(ag, {
        prompt: num(usage.input_tokens) ?? num(usage.prompt_tokens),
        completion: num(usage.output_tokens) ?? num(usage.completion_tokens),
        total: num(usage.total_tokens),
        cache_read: at("cache_read", "input_tokens") ?? at("cache_read_input_tokens") ?? at("input_tokens", "cached"),
        cache_write:
          at("cache_creation", "input_tokens") ??
          at("cache_creation_input_tokens") ??
          at("input_tokens", "cache_write"),
        cache_write_1h: at("cache_creation", "ephemeral_1h_input_tokens"),
        reasoning: at("reasoning", "output_tokens") ?? at("reasoning_tokens") ?? at("output_tokens", "reasoning"),
      });
    }
  }
  return operation ? GEN_AI_OPERATIONS[operation] : undefined;
}

function mapAiSdk(ai: JsonObject, attributes: JsonObject, ag: AgWriter): SpanType | undefined {
  const operation = str(ai.operationId) ?? str(getPath(attributes, ["operation", "name"]));
  const modelCall = !!operation && /\.do(Generate|Stream)$/.test(operation);
  ag.set("meta.request.model", str(getPath(ai, ["model", "id"])));
  const provider = str(getPath(ai, ["model", "provider"]));
  ag.set("meta.system", provider?.split(".")[0]);
  ag.set("meta.response.model", str(getPath(ai, ["response", "model"])));
  ag.set("meta.response.id", str(getPath(ai, ["response", "id"])));
  const finish = getPath(ai, ["response", "finishReason"]);
  if (finish !== undefined) ag.set("meta.response.finish_reasons", Array.isArray(finish) ? finish : [finish]);
  if (isObject(ai.settings)) ag.set("data.parameters", ai.settings);

  const prompt = ai.prompt;
  const promptObject = isObject(prompt) ? prompt : parseMaybeJson(prompt);
  const promptMessages = messages(isObject(prompt) ? prompt.messages : undefined);
  if (promptMessages) ag.move("data.inputs", { messages: promptMessages }, ["ai", "prompt", "messages"]);
  else if (isObject(promptObject)) ag.move("data.inputs", promptObject, ["ai", "prompt"]);
  else if (typeof promptObject === "string") ag.move("data.inputs", { prompt: promptObject }, ["ai", "prompt"]);

  const response = isObject(ai.response) ? ai.response : {};
  const outputs: JsonObject = {};
  if (response.text !== undefined) outputs.text = response.text;
  if (response.object !== undefined) outputs.object = parseMaybeJson(response.object);
  if (response.toolCalls !== undefined) outputs.tool_calls = parseMaybeJson(response.toolCalls);
  const outputSources = [
    ["ai", "response", "text"],
    ["ai", "response", "object"],
    ["ai", "response", "toolCalls"],
  ];
  if (Object.keys(outputs).length === 1 && outputs.text !== undefined)
    ag.move("data.outputs", outputs.text, ...outputSources);
  else if (Object.keys(outputs).length > 0) ag.move("data.outputs", outputs, ...outputSources);

  const toolCall = isObject(ai.toolCall) ? ai.toolCall : undefined;
  if (toolCall) {
    ag.set("meta.tool.name", str(toolCall.name));
    ag.set("meta.tool.call_id", str(toolCall.id));
    const args = toolCall.args ?? toolCall.input;
    if (args !== undefined)
      ag.move("data.inputs", asInputs(parseMaybeJson(args)), ["ai", "toolCall", "args"], ["ai", "toolCall", "input"]);
    const result = toolCall.result ?? toolCall.output;
    if (result !== undefined)
      ag.move("data.outputs", parseMaybeJson(result), ["ai", "toolCall", "result"], ["ai", "toolCall", "output"]);
  }

  if (modelCall && isObject(ai.usage)) {
    const u = ai.usage;
    setTokens(ag, {
      prompt: num(u.inputTokens) ?? num(u.promptTokens),
      completion: num(u.outputTokens) ?? num(u.completionTokens),
      total: num(u.totalTokens),
      cache_read: num(getPath(u, ["inputTokenDetails", "cacheReadTokens"])) ?? num(u.cachedInputTokens),
      cache_write: num(getPath(u, ["inputTokenDetails", "cacheWriteTokens"])),
      reasoning: num(getPath(u, ["outputTokenDetails", "reasoningTokens"])) ?? num(u.reasoningTokens),
    });
  }
  if (!operation) return undefined;
  if (modelCall) return "chat";
  if (operation === "ai.toolCall") return "tool";
  if (operation.startsWith("ai.embed")) return "embedding";
  return "workflow";
}

const OPENINFERENCE_KINDS: Record<string, SpanType> = {
  LLM: "llm",
  CHAIN: "chain",
  TOOL: "tool",
  AGENT: "agent",
  EMBEDDING: "embedding",
  RETRIEVER: "query",
  RERANKER: "rerank",
};

function mapOpenInference(attributes: JsonObject, ag: AgWriter): SpanType | undefined {
  const kind = str(getPath(attributes, ["openinference", "span", "kind"]));
  const input = getPath(attributes, ["input", "value"]);
  if (input !== undefined) ag.move("data.inputs", asInputs(parseMaybeJson(input)), ["input", "value"]);
  const output = getPath(attributes, ["output", "value"]);
  if (output !== undefined) ag.move("data.outputs", parseMaybeJson(output), ["output", "value"]);
  const llm = attributes.llm;
  if (isObject(llm)) {
    ag.set("meta.request.model", str(llm.model_name));
    ag.set("meta.system", str(llm.provider) ?? str(llm.system));
    const count = llm.token_count;
    if (isObject(count)) {
      const details = (...path: string[]) => num(getPath(count, path));
      setTokens(ag, {
        prompt: num(count.prompt),
        completion: num(count.completion),
        total: num(count.total),
        cache_read: details("prompt_details", "cache_read"),
        cache_write: details("prompt_details", "cache_write"),
        reasoning: details("completion_details", "reasoning"),
      });
    }
    const usage = llm.usage;
    if (isObject(usage))
      setTokens(ag, {
        prompt: num(usage.prompt_tokens),
        completion: num(usage.completion_tokens),
        total: num(usage.total_tokens),
      });
  }
  return kind ? OPENINFERENCE_KINDS[kind.toUpperCase()] : undefined;
}

const TRACELOOP_KINDS: Record<string, SpanType> = { workflow: "workflow", task: "task", agent: "agent", tool: "tool" };
const LLM_REQUEST_TYPES: Record<string, SpanType> = {
  chat: "chat",
  completion: "completion",
  embedding: "embedding",
  rerank: "rerank",
};

/**
 * OpenLLMetry (Traceloop's SDKs): a decorated workflow, task, agent or tool carries what it was
 * called with and returned as JSON in `traceloop.entity.input` / `output`, and its kind in
 * `traceloop.span.kind`; a model call says its kind in `llm.request.type` (its messages and usage
 * are `gen_ai.*`, mapped above).
 */
function mapOpenLlmetry(attributes: JsonObject, ag: AgWriter): SpanType | undefined {
  const T = (...path: string[]) => ["traceloop", ...path];
  const input = getPath(attributes, T("entity", "input"));
  if (input !== undefined) ag.move("data.inputs", asInputs(parseMaybeJson(input)), T("entity", "input"));
  const output = getPath(attributes, T("entity", "output"));
  if (output !== undefined) ag.move("data.outputs", parseMaybeJson(output), T("entity", "output"));
  const kind = str(getPath(attributes, T("span", "kind")));
  const requestType = str(getPath(attributes, ["llm", "request", "type"]));
  return (kind && TRACELOOP_KINDS[kind]) || (requestType && LLM_REQUEST_TYPES[requestType]) || undefined;
}

/**
 * Writes `ag.metrics.tokens.incremental` with the usage kinds of server/pricing: `prompt` and
 * `completion` are the whole input and output, the cache and reasoning counts are parts of them.
 * A 1-hour cache write is reported inside the cache writes, and split out here.
 */
function setTokens(ag: AgWriter, usage: Partial<Record<TokenKind | "total", number>>): void {
  const { prompt, completion, total } = usage;
  if (prompt === undefined && completion === undefined && total === undefined) return;
  const oneHour = Math.min(usage.cache_write_1h ?? 0, usage.cache_write ?? 0);
  const parts: Partial<Record<TokenKind, number>> = {
    cache_read: usage.cache_read,
    cache_write: usage.cache_write !== undefined ? usage.cache_write - oneHour : undefined,
    cache_write_1h: oneHour || undefined,
    reasoning: usage.reasoning,
  };
  ag.set("metrics.tokens.incremental", {
    ...(prompt !== undefined ? { prompt } : {}),
    ...(completion !== undefined ? { completion } : {}),
    total: total ?? (prompt ?? 0) + (completion ?? 0),
    ...Object.fromEntries(Object.entries(parts).filter(([, n]) => n !== undefined && n > 0)),
  });
}

function asInputs(value: unknown): unknown {
  return isObject(value) ? value : { input: value };
}

/** A JSON list of messages (string or array), or undefined. */
function messages(value: unknown): unknown[] | undefined {
  const parsed = parseMaybeJson(value);
  return Array.isArray(parsed) ? parsed : undefined;
}

/** Legacy `gen_ai.prompt.0.role` style attributes, unmarshalled into `{0: {...}, 1: {...}}`. */
function indexedMessages(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value).filter((k) => /^\d+$/.test(k));
  if (keys.length === 0) return undefined;
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k]);
}

export function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const t = value.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return value;
  try {
    const parsed: unknown = JSON.parse(t);
    // Too deep to walk safely: kept as the string it was.
    return jsonDepthWithin(parsed) ? parsed : value;
  } catch {
    return value;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function num(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

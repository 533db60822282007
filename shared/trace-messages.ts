import type { UIMessage } from "ai";

/** A message as run traces keep it (OpenTelemetry GenAI conventions, server/agent-runs/run-spans.ts). */
export interface GenAiMessage {
  role: string;
  parts: Array<Record<string, unknown>>;
}

type Part = UIMessage["parts"][number];
type Json = Record<string, unknown>;

/** What the trace cannot say: a tool span recorded without content keeps no output. */
export const OUTPUT_NOT_RECORDED = "(the tool ran; its output is not kept in the trace)";

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A run's messages as the chat shows them: the input history, then one assistant message made of
 * the model calls' outputs (a step each). Tool results in the history complete their calls (one a
 * person approved keeps the approval); a call the server ran (`executed`, with the output its
 * span recorded) is shown as done; any other call without a result still waits (a client tool or
 * an approval).
 */
export function uiMessagesFromGenAi(
  input: GenAiMessage[],
  outputs: GenAiMessage[],
  executed: ReadonlyMap<string, unknown> = new Map(),
): UIMessage[] {
  const messages: UIMessage[] = [];
  const toolParts = new Map<string, Json>();

  const addCall = (parts: Part[], id: string, name: string, args: unknown) => {
    const part: Json = { type: `tool-${name}`, toolCallId: id, state: "input-available", input: args ?? {} };
    toolParts.set(id, part);
    parts.push(part as Part);
  };
  const settle = (block: Json) => {
    const part = toolParts.get(String(block.toolCallId ?? ""));
    if (!part) return;
    if (block.approved === false)
      Object.assign(part, {
        state: "output-denied",
        approval: { id: String(block.interactionToken ?? part.toolCallId), approved: false },
      });
    else if (block.isError === true)
      Object.assign(part, {
        state: "output-error",
        errorText: typeof block.output === "string" ? block.output : JSON.stringify(block.output),
      });
    else
      Object.assign(part, {
        state: "output-available",
        output: block.output ?? null,
        ...(block.approved === true
          ? { approval: { id: String(block.interactionToken ?? part.toolCallId), approved: true } }
          : {}),
      });
  };

  input.forEach((message, index) => {
    if (message.role === "system") return;
    const parts: Part[] = [];
    for (const part of message.parts ?? []) {
      const content = part.content;
      if (part.type === "text" && typeof content === "string") parts.push({ type: "text", text: content });
      else if (part.type === "tool_call" && isObject(content))
        addCall(parts, String(content.toolCallId), String(content.toolName ?? "tool"), content.input);
      else if (part.type === "tool_result" && isObject(content)) settle(content);
    }
    if (parts.length === 0) return;
    const role = message.role === "user" ? "user" : "assistant";
    const previous = messages.at(-1);
    // Consecutive assistant and tool messages are one turn in the chat.
    if (role === "assistant" && previous?.role === "assistant") previous.parts.push(...parts);
    else messages.push({ id: `trace-in-${index}`, role, parts });
  });

  const reply: Part[] = [];
  for (const output of outputs) {
    reply.push({ type: "step-start" });
    for (const part of output.parts ?? []) {
      if (part.type === "text" && typeof part.content === "string")
        reply.push({ type: "text", text: part.content, state: "done" });
      else if (part.type === "tool_call") addCall(reply, String(part.id), String(part.name ?? "tool"), part.arguments);
    }
  }
  for (const [id, part] of toolParts) {
    if (part.state === "input-available" && executed.has(id))
      Object.assign(part, { state: "output-available", output: executed.get(id) ?? OUTPUT_NOT_RECORDED });
  }
  if (reply.some((p) => p.type !== "step-start")) messages.push({ id: "trace-out", role: "assistant", parts: reply });
  return messages;
}

/** An attribute by its dotted name, whether the store kept it flat or nested. */
export function attributeAt(attributes: unknown, name: string): unknown {
  if (!isObject(attributes)) return undefined;
  if (name in attributes) return attributes[name];
  let node: unknown = attributes;
  for (const key of name.split(".")) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

function parseJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function genAiMessages(value: unknown): GenAiMessage[] {
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(parsed)
    ? parsed.filter((m): m is GenAiMessage => isObject(m) && typeof m.role === "string" && Array.isArray(m.parts))
    : [];
}

/**
 * The input and output messages a span carries (empty when the run kept no content). The trace
 * store moves `gen_ai.{input,output}.messages` to `ag.data.{inputs,outputs}.messages`
 * (server/tracing/semantic-conventions.ts); spans read before that mapping keep the GenAI names.
 */
export function spanMessages(attributes: unknown): { input: GenAiMessage[]; output: GenAiMessage[] } {
  const read = (stored: string, original: string) =>
    genAiMessages(attributeAt(attributes, stored) ?? attributeAt(attributes, original));
  return {
    input: read("ag.data.inputs.messages", "gen_ai.input.messages"),
    output: read("ag.data.outputs.messages", "gen_ai.output.messages"),
  };
}

const toolCallId = (attributes: unknown) =>
  attributeAt(attributes, "ag.meta.tool.call_id") ?? attributeAt(attributes, "gen_ai.tool.call.id");

type WireSpan = Json & { spans?: Record<string, WireSpan | WireSpan[]> };

const isRun = (span: WireSpan) => attributeAt(span.attributes, "gen_ai.operation.name") === "invoke_agent";
const continues = (span: WireSpan) => typeof attributeAt(span.attributes, "ag.meta.run.continues_run_id") === "string";
const children = (span: WireSpan) => Object.values(span.spans ?? {}).flatMap((v) => (Array.isArray(v) ? v : [v]));

function latestContinuation(root: WireSpan): WireSpan | undefined {
  return children(root)
    .filter((child) => isRun(child) && continues(child))
    .sort((a, b) => String(a.start_time).localeCompare(String(b.start_time)))
    .at(-1);
}

function descendants(span: WireSpan): WireSpan[] {
  const out: WireSpan[] = [];
  for (const child of Object.values(span.spans ?? {}).flatMap((v) => (Array.isArray(v) ? v : [v])))
    out.push(child, ...descendants(child));
  return out.sort((a, b) => String(a.start_time).localeCompare(String(b.start_time)));
}

export interface TraceRun {
  traceId: string;
  sessionId?: string;
  /** From the run's references; absent for a run of an inline (draft) template. */
  agentId?: string;
  variantId?: string;
  revisionId?: string;
  messages: UIMessage[];
}

/**
 * The agent run a trace records (its `invoke_agent` span): which agent, which session, and its
 * conversation. A trace of an approval lineage is read at its latest run.
 */
export function runOfTrace(trace: {
  trace_id?: unknown;
  spans?: Record<string, WireSpan | WireSpan[]>;
}): TraceRun | null {
  const roots = Object.values(trace.spans ?? {}).flatMap((v) => (Array.isArray(v) ? v : [v]));
  const top = roots.find(isRun);
  if (!top) return null;
  let root = top;
  // A run that continues a paused one (it answered its approvals) is a child of that run's root;
  // the latest of them saw the whole conversation. Nested runs hang under tool spans instead.
  for (let next = latestContinuation(root); next; next = latestContinuation(root)) root = next;
  const all = descendants(root);
  const chats = all.filter((span) => attributeAt(span.attributes, "gen_ai.operation.name") === "chat");
  const executed = new Map<string, unknown>();
  for (const span of all) {
    const id = toolCallId(span.attributes);
    if (typeof id === "string")
      executed.set(
        id,
        attributeAt(span.attributes, "ag.data.outputs") ??
          parseJson(attributeAt(span.attributes, "gen_ai.tool.call.result")),
      );
  }
  const input = chats.map((span) => spanMessages(span.attributes).input).find((m) => m.length > 0) ?? [];
  const outputs = chats.flatMap((span) => spanMessages(span.attributes).output);
  const refs = Array.isArray(root.references)
    ? (root.references as Json[])
    : Array.isArray(top.references)
      ? (top.references as Json[])
      : [];
  const ref = (key: string) => {
    const found = refs.find((r) => isObject(r.attributes) && r.attributes.key === key);
    return typeof found?.id === "string" ? found.id : undefined;
  };
  return {
    traceId: String(trace.trace_id ?? root.trace_id ?? ""),
    // A lineage shares its session; the trace store keeps `session_id` on the trace's own root only.
    sessionId: [root.session_id, top.session_id].find((id): id is string => typeof id === "string"),
    agentId: ref("workflow"),
    variantId: ref("workflow_variant"),
    revisionId: ref("workflow_revision"),
    messages: uiMessagesFromGenAi(input, outputs, executed),
  };
}

import { usageFromAnthropic, type AnthropicUsage } from "@/server/pricing";
import type { NativeEvent } from "@/server/streams";
import { DENIED_BY_USER } from "../../permissions";
import type { HarnessOutcome, StepTiming } from "../../run-types";
import { serviceToolName } from "./agenta-tools-server";

/** What the mapper needs from the run: render hints, and what the process knows of each call. */
export interface MapperContext {
  render(toolName: string): unknown;
  /** The tool's own return value (a tool result reaches Claude Code as text). */
  output(toolUseId: string): { output: unknown; isError: boolean } | undefined;
  /** A call a person denied. */
  denied(toolUseId: string): boolean;
  /** A client tool call the caller answered: its result is not sent back to the caller. */
  fromClient(toolUseId: string): boolean;
}

export interface TurnEnd {
  stopReason: string;
  usage?: HarnessOutcome["usage"];
  /** Set when Claude Code's result is an error (its own wording, never a provider body). */
  error?: string;
}

type Block = { kind: "text" | "thinking"; id: string } | { kind: "tool"; id: string; name: string; json: string };

/**
 * Claude Code's SDK messages as native events, the same vocabulary the core harness emits:
 * partial stream events give text and thinking deltas (ids renumbered `msg-N` / `reason-N`) and
 * tool calls as they start and when their arguments are whole; the tool results come back in its
 * `user` messages; its `result` ends the turn with the stop reason and usage.
 */
export class ClaudeEventMapper {
  readonly steps: StepTiming[] = [];
  /** Tool-call ids in the order the model made them (for the history fingerprint). */
  readonly toolCallIds: string[] = [];
  private next = 0;
  private blocks = new Map<number, Block>();

  constructor(
    private readonly context: MapperContext,
    steps: StepTiming[] = [],
  ) {
    this.steps.push(...steps);
  }

  /** The events of one SDK message, and the turn's end when it is the `result`. */
  map(message: { type: string; [key: string]: unknown }): { events: NativeEvent[]; end?: TurnEnd } {
    switch (message.type) {
      case "stream_event":
        return { events: this.streamEvent(message.event as StreamEvent) };
      case "user":
        return { events: this.toolResults(message.message as { content?: unknown }) };
      case "result":
        return { events: [], end: this.result(message) };
      case "system":
        // Claude Code retries a rejected credential like an outage; a 401 or 403 will not heal.
        if (message.subtype === "api_retry" && (message.error_status === 401 || message.error_status === 403)) {
          return {
            events: [],
            end: {
              stopReason: "error",
              error: `The model provider rejected the credential (${message.error_status}). Check the key.`,
            },
          };
        }
        return { events: [] };
      default:
        return { events: [] };
    }
  }

  private streamEvent(event: StreamEvent): NativeEvent[] {
    const step = this.steps.at(-1);
    switch (event.type) {
      case "message_start":
        this.blocks.clear();
        this.steps.push({
          index: this.steps.length,
          startedAt: Date.now(),
          toolCalls: [],
          usage: usageFromAnthropic({ ...event.message?.usage, output_tokens: 0 }),
        });
        return [];
      case "content_block_start": {
        const block = event.content_block ?? {};
        if (block.type === "text") return [{ type: "message_start", id: this.open(event.index, "text", "msg") }];
        if (block.type === "thinking")
          return [{ type: "thought_start", id: this.open(event.index, "thinking", "reason") }];
        if (block.type === "tool_use" && block.id && block.name) {
          const name = serviceToolName(block.name) ?? block.name;
          this.blocks.set(event.index, { kind: "tool", id: block.id, name, json: "" });
          return [{ type: "tool_call", id: block.id, name, input: {}, ...this.render(name) }];
        }
        return [];
      }
      case "content_block_delta": {
        const block = this.blocks.get(event.index);
        const delta = event.delta ?? {};
        if (block?.kind === "text" && delta.type === "text_delta" && delta.text) {
          if (step) step.text = (step.text ?? "") + delta.text;
          return [{ type: "message_delta", id: block.id, delta: delta.text }];
        }
        if (block?.kind === "thinking" && delta.type === "thinking_delta" && delta.thinking)
          return [{ type: "thought_delta", id: block.id, delta: delta.thinking }];
        if (block?.kind === "tool" && delta.type === "input_json_delta") block.json += delta.partial_json ?? "";
        return [];
      }
      case "content_block_stop": {
        const block = this.blocks.get(event.index);
        if (!block) return [];
        if (block.kind === "text") return [{ type: "message_end", id: block.id }];
        if (block.kind !== "tool") return [{ type: "thought_end", id: block.id }];
        const input = parseJson(block.json);
        this.toolCallIds.push(block.id);
        step?.toolCalls.push({ id: block.id, name: block.name, input, startedAt: Date.now() });
        return [{ type: "tool_call", id: block.id, name: block.name, input, ...this.render(block.name) }];
      }
      case "message_delta":
        if (step) {
          step.endedAt = Date.now();
          step.finishReason = event.delta?.stop_reason ?? undefined;
          step.usage = { ...step.usage, completion: event.usage?.output_tokens ?? 0 };
        }
        return [];
      default:
        return [];
    }
  }

  private toolResults(message: { content?: unknown }): NativeEvent[] {
    if (!Array.isArray(message.content)) return [];
    const events: NativeEvent[] = [];
    for (const block of message.content as Array<Record<string, unknown>>) {
      if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      const id = block.tool_use_id;
      const timing = this.steps.flatMap((s) => s.toolCalls).find((call) => call.id === id);
      if (this.context.fromClient(id)) continue;
      if (this.context.denied(id)) {
        if (timing) Object.assign(timing, { endedAt: Date.now(), isError: true });
        events.push({ type: "tool_result", id, output: DENIED_BY_USER, denied: true });
        continue;
      }
      const own = this.context.output(id);
      const isError = own?.isError ?? block.is_error === true;
      if (timing) Object.assign(timing, { endedAt: Date.now(), isError });
      events.push({ type: "tool_result", id, output: own ? own.output : textOf(block.content), isError });
    }
    return events;
  }

  private result(message: Record<string, unknown>): TurnEnd {
    const usage = message.usage as { input_tokens?: number; output_tokens?: number } | undefined;
    const input = usage?.input_tokens ?? 0;
    const output = usage?.output_tokens ?? 0;
    const totals = usage ? { input, output, total: input + output } : undefined;
    if (message.subtype === "success" && message.is_error !== true) {
      return { stopReason: typeof message.stop_reason === "string" ? message.stop_reason : "end_turn", usage: totals };
    }
    if (message.subtype === "error_max_turns") {
      return {
        stopReason: "error",
        usage: totals,
        error: "The turn reached its step limit (AGENT_MAX_STEPS) before the model finished.",
      };
    }
    return { stopReason: "error", usage: totals, error: resultError(message) };
  }

  private open(index: number, kind: "text" | "thinking", prefix: "msg" | "reason"): string {
    const id = `${prefix}-${this.next++}`;
    this.blocks.set(index, { kind, id });
    return id;
  }

  private render(name: string): { render?: unknown } {
    const value = this.context.render(name);
    return value === undefined || value === null ? {} : { render: value };
  }
}

interface StreamEvent {
  type: string;
  index: number;
  message?: { usage?: AnthropicUsage };
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null };
  usage?: { output_tokens?: number };
}

function parseJson(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      part && typeof part === "object" && (part as { type?: unknown }).type === "text"
        ? String((part as { text?: unknown }).text ?? "")
        : "",
    )
    .join("");
}

/**
 * Claude Code's `result` text for a failed turn is its own summary ("API Error: 401 ..."), which
 * can quote the provider's body; only the status and kind are kept.
 */
function resultError(message: Record<string, unknown>): string {
  const text = [
    typeof message.result === "string" ? message.result : "",
    ...(Array.isArray(message.errors) ? message.errors.map(String) : []),
  ].join(" ");
  const status =
    typeof message.api_error_status === "number"
      ? String(message.api_error_status)
      : /\b(4\d\d|5\d\d)\b/.exec(text)?.[1];
  if (status === "401" || status === "403")
    return `The model provider rejected the credential (${status}). Check the key.`;
  if (status) return `The model provider failed with status ${status}; retry the turn.`;
  return "Claude Code ended the turn with an error; retry the turn.";
}

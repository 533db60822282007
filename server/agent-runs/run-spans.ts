import { randomHex } from "@/server/core/ids";
import type { Cost, TokenUsage } from "@/server/pricing";
import type { NativeMessage } from "@/server/streams";
import type { SpanInput } from "@/server/tracing";
import type { RunRecord, StepTiming } from "./run-types";
import { toolSpanId } from "./tool-span-id";

export interface RunSpansOptions {
  /** Input and output messages and tool arguments on the spans (AGENT_TRACE_CONTENT). */
  captureContent: boolean;
  /** Span ids of the children; random unless a test pins them. */
  newSpanId?: () => string;
}

const spanId = () => randomHex(8);

/** The status message of a model call or tool call cut off by its process's death (the run was taken over). */
export const INTERRUPTED_SPAN_MESSAGE = "interrupted: the process running the run stopped before this ended";

/**
 * A finished run as OpenTelemetry GenAI spans: `invoke_agent <agent>` (the run's own span id, under
 * the caller's span when a traceparent came in) > `turn <n>` > one `chat <model>` per model call
 * and one `execute_tool <name>` per tool the server ran. Usage sits on the chat spans only; the
 * trace store rolls it up to the parents.
 */
export function runSpans(record: RunRecord, options: RunSpansOptions): SpanInput[] {
  const newId = options.newSpanId ?? spanId;
  // The harness reports a provider failure as its stop reason; the engine's own (limits, crashes) as `error`.
  const failed = record.error !== undefined || record.stopReason === "error";
  const status = (error: boolean) =>
    error
      ? { status_code: "STATUS_CODE_ERROR" as const, status_message: record.error }
      : { status_code: "STATUS_CODE_OK" as const };
  // The failure as OpenTelemetry records exceptions, on the root and on the model call that failed.
  const exception = record.error
    ? {
        events: [
          {
            name: "exception",
            timestamp: record.endedAt,
            attributes: { "exception.type": "AgentRunError", "exception.message": record.error },
          },
        ],
      }
    : {};
  const interrupted = {
    status_code: "STATUS_CODE_ERROR" as const,
    status_message: INTERRUPTED_SPAN_MESSAGE,
  };
  // Each takeover is an event on the root at the time another process took the run over.
  const takeovers = record.takeovers ?? [];
  const takeoverEvents = takeovers.map((takeover) => ({
    name: "run_taken_over",
    timestamp: takeover.at,
    attributes: {
      "ag.meta.run.interrupted_tool_calls": takeover.interrupted,
      "ag.meta.run.discarded_blocks": takeover.discarded,
    },
  }));
  const rootEvents = [...takeoverEvents, ...(exception.events ?? [])];
  const common = { trace_id: record.traceId, session_id: record.sessionId };
  const model = { "gen_ai.provider.name": record.provider, "gen_ai.request.model": record.model };
  const turnNumber = record.messages.filter((m) => m.role === "user").length;
  const turnId = newId();

  const root: SpanInput = {
    ...common,
    span_id: record.spanId,
    parent_id: record.parentSpanId ?? null,
    span_name: `invoke_agent ${record.agent.name ?? "inline agent"}`,
    span_kind: "SPAN_KIND_SERVER",
    start_time: record.startedAt,
    end_time: record.endedAt,
    ...status(failed),
    ...(rootEvents.length ? { events: rootEvents } : {}),
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      ...(record.agent.name ? { "gen_ai.agent.name": record.agent.name } : {}),
      ...model,
      "ag.meta.run.harness": record.harness,
      "ag.meta.run.stop_reason": record.stopReason,
      ...(record.door ? { "ag.meta.run.door": record.door } : {}),
      ...(record.skills?.length ? { "ag.meta.run.skills": record.skills } : {}),
      ...(record.mcpServers?.length ? { "ag.meta.run.mcp_servers": record.mcpServers } : {}),
      ...(takeovers.length ? { "ag.meta.run.takeovers": takeovers.length } : {}),
      ...(record.continuesRunId ? { "ag.meta.run.continues_run_id": record.continuesRunId } : {}),
    },
    references: Object.entries(record.agent.references ?? {}).map(([kind, ref]) => ({
      id: ref.id,
      ...(ref.slug ? { slug: ref.slug } : {}),
      ...(ref.version ? { version: ref.version } : {}),
      attributes: { key: kind },
    })),
  };
  const turn: SpanInput = {
    ...common,
    span_id: turnId,
    parent_id: record.spanId,
    span_name: `turn ${turnNumber}`,
    start_time: record.startedAt,
    end_time: record.endedAt,
    ...status(failed),
    attributes: { "ag.meta.run.turn": turnNumber },
  };

  // A run that failed before the model answered still shows the model call it attempted; a step of
  // approved calls run before the model is no model call and gets no chat span.
  const steps: StepTiming[] = record.steps.length
    ? record.steps
    : [{ index: 0, startedAt: record.startedAt, endedAt: record.endedAt, toolCalls: [] }];
  const modelSteps = steps.filter((step) => !step.approvals);
  const chats = modelSteps.map((step, i): SpanInput => {
    const last = i === modelSteps.length - 1;
    // Through a model alias each step names the entry that answered, and the tries before it.
    const answered = step.model
      ? { "gen_ai.provider.name": step.provider ?? record.provider, "gen_ai.request.model": step.model }
      : model;
    return {
      ...common,
      span_id: newId(),
      parent_id: turnId,
      span_name: `chat ${step.model ?? record.model}`,
      span_kind: "SPAN_KIND_CLIENT",
      start_time: step.startedAt,
      end_time: step.endedAt ?? record.endedAt,
      ...(step.interrupted ? interrupted : status(failed && last)),
      ...(failed && last ? exception : {}),
      attributes: {
        "gen_ai.operation.name": "chat",
        ...(step.interrupted ? { "ag.meta.run.interrupted": true } : {}),
        ...answered,
        ...(step.attempts?.length
          ? {
              "ag.meta.run.attempts": step.attempts.map((a) => ({
                provider: a.provider,
                model: a.model,
                outcome: a.outcome,
                started_at: new Date(a.startedAt).toISOString(),
                ended_at: new Date(a.endedAt).toISOString(),
              })),
            }
          : {}),
        ...(step.finishReason ? { "gen_ai.response.finish_reasons": [step.finishReason] } : {}),
        ...(step.usage ? usageAttributes(step.usage) : {}),
        ...(step.usage && step.cost ? costAttributes(step.cost) : {}),
        ...(options.captureContent
          ? {
              ...(i === 0 ? { "gen_ai.input.messages": JSON.stringify(record.messages.map(toGenAiMessage)) } : {}),
              "gen_ai.output.messages": JSON.stringify([outputMessage(step)]),
            }
          : {}),
      },
    };
  });
  const tools = steps.flatMap((step) =>
    step.toolCalls
      .filter((call) => call.endedAt !== undefined)
      .map((call): SpanInput => ({
        ...common,
        // Derived, so a nested run (reference tool) started during the call can name it as parent.
        span_id: toolSpanId(record.traceId, call.spanKey ?? call.id),
        parent_id: turnId,
        span_name: `execute_tool ${call.name}`,
        span_kind: "SPAN_KIND_INTERNAL",
        start_time: call.startedAt,
        end_time: call.endedAt,
        ...(call.interrupted
          ? interrupted
          : call.isError
            ? { status_code: "STATUS_CODE_ERROR" as const }
            : { status_code: "STATUS_CODE_OK" as const }),
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": call.name,
          "gen_ai.tool.call.id": call.id,
          ...(call.interrupted ? { "ag.meta.run.interrupted": true } : {}),
          ...(call.approved ? { "ag.meta.tool.approved": true } : {}),
          ...(options.captureContent && call.input !== undefined
            ? { "gen_ai.tool.call.arguments": JSON.stringify(call.input) }
            : {}),
          ...(options.captureContent && call.output !== undefined
            ? { "gen_ai.tool.call.result": typeof call.output === "string" ? call.output : JSON.stringify(call.output) }
            : {}),
        },
      })),
  );
  return [root, turn, ...chats, ...tools];
}

/**
 * A model call's usage as the GenAI conventions' attributes (cache and reasoning counts are parts
 * of input and output; the 1-hour cache writes, which Anthropic prices apart, in its own field).
 */
function usageAttributes(usage: TokenUsage): Record<string, number> {
  const writes = (usage.cache_write ?? 0) + (usage.cache_write_1h ?? 0);
  return {
    "gen_ai.usage.input_tokens": usage.prompt ?? 0,
    "gen_ai.usage.output_tokens": usage.completion ?? 0,
    ...(usage.cache_read ? { "gen_ai.usage.cache_read.input_tokens": usage.cache_read } : {}),
    ...(writes ? { "gen_ai.usage.cache_creation.input_tokens": writes } : {}),
    ...(usage.cache_write_1h ? { "gen_ai.usage.cache_creation.ephemeral_1h_input_tokens": usage.cache_write_1h } : {}),
    ...(usage.reasoning ? { "gen_ai.usage.reasoning.output_tokens": usage.reasoning } : {}),
  };
}

/** The call's cost as the run costed it, so the trace shows the number the chat and the run show. */
function costAttributes(cost: Cost): Record<string, unknown> {
  return cost.priced
    ? {
        "ag.metrics.costs.incremental": cost.amounts,
        "ag.meta.pricing": { source: cost.source, ...cost.priceOf },
      }
    : { "ag.meta.pricing": { source: "none", reason: cost.reason } };
}

/** The GenAI conventions' message shape: a role and typed parts. */
function toGenAiMessage(message: NativeMessage) {
  return {
    role: message.role,
    parts: message.content.map((block) =>
      block.type === "text" ? { type: "text", content: block.text } : { type: block.type, content: block },
    ),
  };
}

function outputMessage(step: StepTiming) {
  return {
    role: "assistant",
    parts: [
      ...(step.text ? [{ type: "text", content: step.text }] : []),
      // An interrupted call run again is one call the model made.
      ...step.toolCalls
        .filter((call, i) => step.toolCalls.findIndex((other) => other.id === call.id) === i)
        .map((call) => ({ type: "tool_call", id: call.id, name: call.name, arguments: call.input })),
    ],
    ...(step.finishReason ? { finish_reason: step.finishReason } : {}),
  };
}

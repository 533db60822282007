import { randomBytes } from "node:crypto";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/http/app-context";
import { recordSpans, type SpanInput } from "@/server/tracing";
import type { RunRecord } from "./run-types";

const spanId = () => randomBytes(8).toString("hex");
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A finished run as spans, after the GenAI semantic conventions: `invoke_agent` (outcome)
 * > `chat` per model step > `execute_tool` per tool call. The root carries the run's ids, so the
 * trace id the chat shows opens this trace.
 */
export function runSpans(record: RunRecord, principal: Principal): SpanInput[] {
  const common = { trace_id: record.traceId, session_id: record.sessionId, user_id: principal.userId };
  const failed = record.error !== undefined || record.stopReason === "error";
  const spans: SpanInput[] = [
    {
      ...common,
      span_id: record.spanId,
      parent_id: record.parentSpanId ?? null,
      span_name: "invoke_agent",
      start_time: iso(record.startedAt),
      end_time: iso(record.endedAt),
      status_code: failed ? "STATUS_CODE_ERROR" : "STATUS_CODE_OK",
      ...(failed ? { status_message: record.error ?? "The turn ended with an error." } : {}),
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.provider.name": record.provider,
        "gen_ai.request.model": record.model,
        "agent.harness": record.harness,
        "agent.stop_reason": record.stopReason,
      },
    },
  ];
  const last = record.steps.at(-1);
  for (const step of record.steps) {
    const stepId = spanId();
    // Usage is known for the whole turn only; tracing counts it on model-call spans and rolls it
    // up, so the last step carries it and the run's total comes out right.
    const usage = step === last && record.usage ? { "gen_ai.usage.input_tokens": record.usage.input, "gen_ai.usage.output_tokens": record.usage.output } : {};
    const stepEnd = step.endedAt ?? record.endedAt;
    spans.push({
      ...common,
      span_id: stepId,
      parent_id: record.spanId,
      span_name: "chat",
      start_time: iso(step.startedAt),
      end_time: iso(stepEnd),
      status_code: "STATUS_CODE_OK",
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": record.provider,
        "gen_ai.request.model": record.model,
        "agent.step": step.index,
        ...usage,
        ...(step.finishReason ? { "gen_ai.response.finish_reasons": [step.finishReason] } : {}),
      },
    });
    for (const call of step.toolCalls) {
      spans.push({
        ...common,
        span_id: spanId(),
        parent_id: stepId,
        span_name: `execute_tool ${call.name}`,
        start_time: iso(call.startedAt),
        end_time: iso(call.endedAt ?? stepEnd),
        status_code: "STATUS_CODE_OK",
        attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": call.name, "gen_ai.tool.call.id": call.id },
      });
    }
  }
  return spans;
}

/** Records the run's trace through tracing's durable path; the connection's key is redacted. */
export async function recordRunTrace(app: AppContext, principal: Principal, record: RunRecord, secret?: string): Promise<void> {
  await recordSpans(app.db, principal.projectId, runSpans(record, principal), { config: app.config.tracing, redact: secret ? [secret] : [] });
}

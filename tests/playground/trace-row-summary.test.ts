import { describe, expect, it } from "vitest";
import { traceRowSummary } from "@/components/traces/trace-row-summary";

/** A stored run as the traces list returns it: `ag.*` attributes, children under `spans`. */
function run(options: { rootStatus?: string; stopReason: string; toolStatus?: string; reply?: string }) {
  const messages = (role: string, content: string) => JSON.stringify([{ role, parts: [{ type: "text", content }] }]);
  return {
    spans: {
      "invoke_agent Support": {
        span_id: "r",
        span_name: "invoke_agent Support",
        session_id: "sess-7",
        status_code: options.rootStatus ?? "STATUS_CODE_OK",
        attributes: {
          gen_ai: { operation: { name: "invoke_agent" } },
          ag: { meta: { request: { model: "gpt-5-mini" }, run: { stop_reason: options.stopReason } } },
        },
        spans: {
          "turn 1": {
            span_id: "t",
            span_name: "turn 1",
            spans: {
              "chat gpt-5-mini": {
                span_id: "c",
                span_name: "chat gpt-5-mini",
                attributes: {
                  gen_ai: { operation: { name: "chat" } },
                  ag: {
                    data: {
                      inputs: { messages: messages("user", "Where is my   order?") },
                      outputs: { messages: messages("assistant", options.reply ?? "") },
                    },
                  },
                },
              },
              "execute_tool lookup": {
                span_id: "x",
                span_name: "execute_tool lookup",
                status_code: options.toolStatus ?? "STATUS_CODE_OK",
                attributes: {},
              },
            },
          },
        },
      },
    },
  };
}

describe("a trace's row in the list", () => {
  it("shows what went in and came out, the model and the session", () => {
    expect(traceRowSummary(run({ stopReason: "end_turn", reply: "It ships tomorrow." }))).toEqual({
      outcome: "ok",
      failedSteps: 0,
      input: "Where is my order?",
      output: "It ships tomorrow.",
      model: "gpt-5-mini",
      sessionId: "sess-7",
    });
  });

  it("a turn paused for approval is not OK; a failed tool in a run that went on is not a failed run", () => {
    expect(traceRowSummary(run({ stopReason: "paused" })).outcome).toBe("paused");
    expect(traceRowSummary(run({ stopReason: "end_turn", toolStatus: "STATUS_CODE_ERROR" }))).toMatchObject({
      outcome: "ok",
      failedSteps: 1,
    });
    expect(traceRowSummary(run({ stopReason: "error", rootStatus: "STATUS_CODE_ERROR" }))).toMatchObject({
      outcome: "error",
      failedSteps: 0,
    });
  });

  it("a paused turn that a person answered ends as its continuation did", () => {
    const paused = run({ stopReason: "paused" });
    const root = paused.spans["invoke_agent Support"] as Record<string, unknown> & { spans: Record<string, unknown> };
    root.start_time = "2026-11-27T10:00:00.000Z";
    const continuation = (stopReason: string, start: string, status = "STATUS_CODE_OK") => ({
      span_id: `k-${start}`,
      span_name: "invoke_agent Support",
      start_time: start,
      status_code: status,
      attributes: { ag: { meta: { run: { stop_reason: stopReason, continues_run_id: "run-1" } } } },
    });
    root.spans["invoke_agent Support"] = continuation("end_turn", "2026-11-27T10:00:05.000Z");
    expect(traceRowSummary(paused).outcome).toBe("ok");
    // Paused again after the first answer: the latest continuation decides.
    root.spans["invoke_agent Support"] = [
      continuation("end_turn", "2026-11-27T10:00:09.000Z"),
      continuation("permission_required", "2026-11-27T10:00:05.000Z"),
    ];
    expect(traceRowSummary(paused).outcome).toBe("ok");
    root.spans["invoke_agent Support"] = continuation("error", "2026-11-27T10:00:05.000Z", "STATUS_CODE_ERROR");
    expect(traceRowSummary(paused).outcome).toBe("error");
  });
});

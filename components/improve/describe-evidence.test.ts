import { describe, expect, it } from "vitest";
import { describeEvidence, describeOptimizationState, previewValue, strategyLabel } from "./describe-evidence";

describe("evidence and state in words", () => {
  it("names each kind of evidence with its ids shortened", () => {
    expect(
      describeEvidence({ kind: "monitor_alert", monitor_id: "0123456789abcdef", alert_id: "fedcba9876543210" }),
    ).toBe("Alert fedcba98 of monitor 01234567");
    expect(describeEvidence({ kind: "monitor_alert", monitor_id: "0123456789abcdef" })).toBe(
      "Latest alert of monitor 01234567",
    );
    expect(describeEvidence({ kind: "evaluation_run", run_id: "abcdef0123", below: 0.5 })).toBe(
      "Evaluation abcdef01, scores below 0.5",
    );
    expect(describeEvidence({ kind: "annotations" })).toBe("Review annotations");
    expect(describeEvidence({ kind: "traces" })).toBe("Traces");
    expect(describeEvidence({ kind: "traces", oldest: "2026-11-01T00:00:00Z" })).toMatch(/^Traces since /);
  });

  it("says which round a running optimization is in", () => {
    expect(describeOptimizationState({ status: "running", rounds: 3, progress: { round: 2, rounds: 3 } })).toBe(
      "Round 2 of 3",
    );
    expect(describeOptimizationState({ status: "queued", rounds: 3 })).toBe("Waiting for a worker");
    expect(describeOptimizationState({ status: "succeeded", rounds: 3 })).toBe("");
    expect(strategyLabel("few_shot")).toBe("Few-shot examples");
    expect(strategyLabel("other")).toBe("other");
  });
});

describe("previewValue", () => {
  it("shows a chat's last message, a string as it is, anything else as short JSON", () => {
    expect(previewValue({ messages: [{ role: "user", content: "Where is\n my refund?" }] })).toBe(
      "Where is my refund?",
    );
    expect(previewValue("plain")).toBe("plain");
    expect(previewValue({ a: 1 })).toBe('{"a":1}');
    expect(previewValue(null)).toBe("—");
    expect(previewValue("x".repeat(300), 10)).toBe(`${"x".repeat(9)}…`);
  });
});

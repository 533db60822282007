import { describe, expect, it } from "vitest";
import { aggregateRun, cellPassed, histogram, quantile, type AggregateRow } from "@/components/evaluations/aggregates";
import { outputMessages } from "@/components/evaluations/output-messages";
import { rowErrored, visibleRows } from "@/components/evaluations/row-filters";
import type { EvaluationRow } from "@/components/evaluations/types";
import { formatCost, formatDelta, formatDuration } from "@/components/evaluations/format";
import { outputText, reasonOf } from "@/components/evaluations/output-text";
import { caseTrend, regressionOrder } from "@/components/evaluations/regression-order";
import { wordDiff } from "@/components/evaluations/word-diff";

describe("wordDiff", () => {
  it("marks changed words and keeps the rest", () => {
    expect(wordDiff("the sum is 41", "the sum is 42")).toEqual([
      { type: "equal", text: "the sum is " },
      { type: "delete", text: "41" },
      { type: "insert", text: "42" },
    ]);
  });

  it("gives both texts back from its segments", () => {
    const a = "Paris is the capital of France.\nIt has 2 million people.";
    const b = "Paris is the capital and largest city of France.\nIt has two million people.";
    const segments = wordDiff(a, b);
    expect(
      segments
        .filter((s) => s.type !== "insert")
        .map((s) => s.text)
        .join(""),
    ).toBe(a);
    expect(
      segments
        .filter((s) => s.type !== "delete")
        .map((s) => s.text)
        .join(""),
    ).toBe(b);
    expect(segments.some((s) => s.type === "insert" && s.text.includes("largest"))).toBe(true);
  });

  it("handles empty sides and long texts", () => {
    expect(wordDiff("", "new")).toEqual([{ type: "insert", text: "new" }]);
    expect(wordDiff("old", "")).toEqual([{ type: "delete", text: "old" }]);
    const long = Array.from({ length: 2_000 }, (_, i) => `w${i}`).join(" ");
    const other = Array.from({ length: 2_000 }, (_, i) => `x${i}`).join(" ");
    const segments = wordDiff(long, other);
    expect(
      segments
        .filter((s) => s.type !== "insert")
        .map((s) => s.text)
        .join(""),
    ).toBe(long);
  });
});

describe("aggregates", () => {
  it("quantiles and histograms", () => {
    expect(quantile([], 0.5)).toBeUndefined();
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.95)).toBe(4);
    expect(histogram([0, 0.05, 0.5, 1], 1)).toEqual([2, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(histogram([0, 0], 0, 2)).toEqual([2, 0]);
  });

  it("sums a run: scores per evaluator, latency, tokens, cost", () => {
    const rows: AggregateRow[] = [
      {
        output_status: "success",
        latency_ms: 100,
        tokens: 10,
        cost_usd: 0.001,
        scores: { exact: { status: "success", score: 1 } },
      },
      {
        output_status: "success",
        latency_ms: 300,
        tokens: 20,
        cost_usd: 0.002,
        scores: { exact: { status: "success", score: 0 } },
      },
      { output_status: "failure", scores: { exact: { status: "failure" } } },
      { output_status: "running", scores: {} },
    ];
    const a = aggregateRun(rows, ["exact"]);
    expect(a.rows).toBe(4);
    expect(a.done).toBe(3);
    expect(a.errors).toBe(1);
    expect(a.evaluators[0]).toMatchObject({ name: "exact", mean: 0.5, passed: 1, scored: 2, failed: 1 });
    expect(a.evaluators[0].histogram[0]).toBe(1);
    expect(a.evaluators[0].histogram[9]).toBe(1);
    expect(a.latency).toMatchObject({ mean: 200, p50: 100, p95: 300, max: 300 });
    expect(a.tokens).toBe(30);
    expect(a.costUsd).toBeCloseTo(0.003);
  });

  it("a run whose model has no price has an unknown cost, not $0", () => {
    const rows: AggregateRow[] = [
      { output_status: "success", tokens: 15, scores: {} },
      { output_status: "success", tokens: 15, scores: {} },
    ];
    expect(aggregateRun(rows, []).costUsd).toBeUndefined();
    // One priced row beside an unpriced one: the sum would read as the whole; still unknown.
    expect(
      aggregateRun([...rows, { output_status: "success", tokens: 5, cost_usd: 0.01, scores: {} }], []).costUsd,
    ).toBeUndefined();
    // Rows that used no tokens cost nothing.
    expect(aggregateRun([{ output_status: "failure", scores: {} }], []).costUsd).toBe(0);
  });
});

describe("regression order", () => {
  const row = (id: string, deltas: (number | undefined)[], status = "success") => ({
    id,
    runs: [{ status: "success", deltas: {} }, ...deltas.map((d) => ({ status, deltas: { judge: d } }))],
  });

  it("puts regressed rows first, the largest drop first, then unchanged, then improved", () => {
    const ordered = regressionOrder([
      row("same", [0]),
      row("better", [0.5]),
      row("slightly-worse", [-0.2]),
      row("much-worse", [-0.9]),
      row("unknown", [undefined]),
    ]);
    expect(ordered.map((r) => r.id)).toEqual(["much-worse", "slightly-worse", "same", "unknown", "better"]);
  });

  it("counts a failed output as a regression even without scores", () => {
    expect(caseTrend(row("failed", [undefined], "failure"))).toBe("regressed");
    expect(caseTrend(row("mixed", [0.4, -0.1]))).toBe("regressed");
  });
});

describe("outputs", () => {
  it("reads an agent's final answer, strings and JSON", () => {
    const messages = [
      { role: "assistant", content: [{ type: "text", text: "Let me add." }] },
      { role: "tool", content: "{}" },
      { role: "assistant", content: [{ type: "text", text: "3" }] },
    ];
    expect(outputText(messages)).toBe("3");
    expect(outputText({ messages })).toBe("3");
    expect(outputText("plain")).toBe("plain");
    expect(outputText({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(outputText(undefined)).toBe("");
    expect(reasonOf({ score: 0.2, reason: "wrong sum" })).toBe("wrong sum");
    expect(reasonOf({ success: true })).toBeUndefined();
  });

  it("formats with units", () => {
    expect(formatDuration(840)).toBe("840\u00a0ms");
    expect(formatDuration(2400)).toBe("2.4\u00a0s");
    expect(formatCost(0.0012)).toBe("$0.0012");
    expect(formatDelta(-0.1)).toBe("−0.10");
    expect(formatDelta(0)).toBe("±0");
  });
});

describe("pass rule and row filters", () => {
  const row = (scores: EvaluationRow["scores"], extra: Partial<EvaluationRow> = {}): EvaluationRow => ({
    scenario_id: Math.random().toString(36),
    status: "success",
    inputs: {},
    output_status: "success",
    scores,
    ...extra,
  });

  it("takes an evaluator's own success over its score", () => {
    expect(cellPassed({ status: "success", score: 0.9, outputs: { score: 0.9, success: true } })).toBe(true);
    expect(cellPassed({ status: "success", score: 0, outputs: { success: false } })).toBe(false);
    expect(cellPassed({ status: "success", score: 1 })).toBe(true);
    expect(cellPassed({ status: "failure" })).toBe(false);
    expect(cellPassed({ status: "queued" })).toBeUndefined();
  });

  it("filters failed rows, by evaluator and score, and sorts", () => {
    const judgePass = { status: "success", score: 0.9, outputs: { score: 0.9, success: true } };
    const rows = [
      row({ judge: judgePass, exact: { status: "success", score: 1, outputs: { success: true } } }, { latency_ms: 5 }),
      row({ judge: judgePass, exact: { status: "success", score: 0, outputs: { success: false } } }, { latency_ms: 9 }),
      row({ judge: { status: "failure" } }, { output_status: "failure" }),
    ];
    expect(visibleRows(rows, { filter: "failed", sort: "testset" })).toEqual([rows[1], rows[2]]);
    expect(visibleRows(rows, { filter: "passed", sort: "testset" })).toEqual([rows[0]]);
    expect(visibleRows(rows, { filter: "all", evaluator: "exact", maxScore: 0.5, sort: "testset" })).toEqual([rows[1]]);
    expect(visibleRows(rows, { filter: "all", sort: "latency-desc" })).toEqual([rows[1], rows[0], rows[2]]);
    expect(visibleRows(rows, { filter: "all", evaluator: "exact", sort: "score-asc" })).toEqual([
      rows[1],
      rows[0],
      rows[2],
    ]);
    expect(rows.filter(rowErrored)).toEqual([rows[2]]);
  });
});

describe("agent outputs as chat messages", () => {
  it("renders text and tool calls with their results", () => {
    const messages = outputMessages([
      {
        role: "assistant",
        content: [
          { type: "text", text: "Adding." },
          { type: "tool_call", toolCallId: "c1", toolName: "add", input: { a: 1, b: 2 } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: [{ type: "tool_result", toolCallId: "c1", output: { sum: 3 } }] },
      { role: "assistant", content: [{ type: "text", text: "3" }] },
    ])!;
    expect(messages).toHaveLength(1);
    const parts = messages[0].parts.filter((p) => p.type !== "step-start");
    expect(parts[0]).toMatchObject({ type: "text", text: "Adding." });
    expect(parts[1]).toMatchObject({
      type: "tool-add",
      state: "output-available",
      output: { sum: 3 },
      input: { a: 1, b: 2 },
    });
    expect(parts[2]).toMatchObject({ type: "text", text: "3" });
    expect(outputMessages("plain text")).toBeUndefined();
  });
});

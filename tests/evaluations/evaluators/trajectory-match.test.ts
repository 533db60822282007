import { describe, expect, it } from "vitest";
import { errorOf, evaluate, outputsOf } from "./run";

const TRAJECTORY = "svc:builtin:trajectory_match:v0";
const trace = {
  trace_id: "t1",
  toolCalls: [
    { name: "search", input: { q: "capital of france", limit: 3 }, output: "Paris" },
    { name: "log", input: {} },
    { name: "answer", input: { text: "Paris" } },
  ],
};
const expected = ["search", { name: "answer", input: { text: "Paris" } }];

describe("trajectory_match", () => {
  it("scores the trace's tool calls in each mode, with arguments when asked, and explains the difference", async () => {
    const run = (parameters: Record<string, unknown>, column: unknown = expected) =>
      outputsOf(evaluate(TRAJECTORY, parameters, { expected_tool_calls: column }, "Paris", { trace }));
    expect(await run({})).toEqual({
      score: 1,
      success: true,
      diff: '  search {"limit":3,"q":"capital of france"}\n+ log {}   (called, not expected)\n  answer {"text":"Paris"}',
    });
    const exact = await run({ mode: "exact" });
    expect(exact.score).toBeCloseTo(2 / 3, 10);
    expect(exact.success).toBe(false);
    expect(await run({ mode: "exact", threshold: 0.6 })).toMatchObject({ success: true });
    expect(await run({ mode: "any_order" }, ["answer", "search"])).toMatchObject({ score: 1, success: true });
    expect(await run({ mode: "in_order" }, ["answer", "search"])).toMatchObject({ score: 0.5, success: false });
    expect(
      await run({ compare_arguments: true }, [
        { name: "search", input: { q: "capital of france" } },
        { name: "answer", arguments: { text: "Rome" } },
      ]),
    ).toMatchObject({
      score: 0.5,
      success: false,
    });
    expect(await run({}, JSON.stringify(["search"]))).toMatchObject({ score: 1 });
    expect(
      await outputsOf(
        evaluate(TRAJECTORY, { expected_tool_calls_key: "tools" }, { tools: [] }, "x", { trace: { trace_id: "t2" } }),
      ),
    ).toMatchObject({ score: 1, success: true });
  });

  it("reads the tool calls of an agent's native messages when there is no trace", async () => {
    const messages = [
      { role: "user", content: "capital?" },
      { role: "tool", content: "", tool_call_id: "c1", tool_name: "search", input: { q: "x" } },
      { role: "tool", content: "Paris", tool_call_id: "c1", is_error: false },
      { role: "assistant", content: "Paris" },
    ];
    expect(
      await outputsOf(evaluate(TRAJECTORY, { mode: "exact" }, { expected_tool_calls: ["search"] }, messages)),
    ).toEqual({ score: 1, success: true, diff: '  search {"q":"x"}' });
  });

  it("a missing or malformed expectation, or nothing to score, is a failure that says what to do", async () => {
    expect((await errorOf(evaluate(TRAJECTORY, {}, {}, "x", { trace }))).message).toContain(
      'no column "expected_tool_calls"',
    );
    expect(
      (await errorOf(evaluate(TRAJECTORY, {}, { expected_tool_calls: "search, answer" }, "x", { trace }))).message,
    ).toContain("not a JSON list");
    expect((await errorOf(evaluate(TRAJECTORY, {}, { expected_tool_calls: [42] }, "x", { trace }))).message).toContain(
      "item 0 must be a tool name",
    );
    expect(
      (await errorOf(evaluate(TRAJECTORY, { mode: "fuzzy" }, { expected_tool_calls: [] }, "x", { trace }))).message,
    ).toContain("mode must be one of exact, in_order, any_order");
    expect((await errorOf(evaluate(TRAJECTORY, {}, { expected_tool_calls: [] }, "plain text"))).code).toBe(
      "invalid_outputs",
    );
  });
});

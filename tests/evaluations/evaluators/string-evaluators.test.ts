import { describe, expect, it } from "vitest";
import { isRunnableEvaluatorUri } from "@/server/evaluations/evaluators";
import { errorOf, evaluate, outputsOf } from "./run";

const B = (key: string) => `svc:builtin:${key}:v0`;
const agentReply = [
  { role: "user", content: "hi" },
  { role: "tool", content: "", tool_call_id: "c1", tool_name: "lookup", input: {} },
  { role: "assistant", content: "The capital is Paris." },
];

describe("string evaluators", () => {
  it("exact match compares strings (optionally ignoring case) and objects regardless of key order", async () => {
    expect(await outputsOf(evaluate(B("auto_exact_match"), {}, { correct_answer: "Paris" }, "Paris"))).toEqual({
      success: true,
    });
    expect(await outputsOf(evaluate(B("auto_exact_match"), {}, { correct_answer: "Paris" }, "paris"))).toEqual({
      success: false,
    });
    expect(
      await outputsOf(evaluate(B("auto_exact_match"), { case_sensitive: false }, { correct_answer: "Paris" }, "paris")),
    ).toEqual({ success: true });
    expect(
      await outputsOf(
        evaluate(
          B("auto_exact_match"),
          { correct_answer_key: "want" },
          { want: { a: 1, b: [1, 2] } },
          { b: [1, 2], a: 1 },
        ),
      ),
    ).toEqual({ success: true });
    expect(await outputsOf(evaluate(B("auto_exact_match"), {}, { correct_answer: '{"a":1}' }, { a: 1 }))).toEqual({
      success: true,
    });
    expect(await outputsOf(evaluate(B("auto_exact_match"), {}, { correct_answer: "1" }, 1))).toEqual({
      success: false,
    });
    // An agent's outputs are its messages: the final assistant text is compared.
    expect(
      await outputsOf(evaluate(B("auto_exact_match"), {}, { correct_answer: "The capital is Paris." }, agentReply)),
    ).toEqual({ success: true });
    expect(
      await outputsOf(evaluate("agenta:builtin:auto_exact_match:v0", {}, { inputs: { correct_answer: "x" } }, "x")),
    ).toEqual({ success: true });
  });

  it("a missing answer column or output is a failure that names the fix", async () => {
    const missing = await errorOf(
      evaluate(B("auto_exact_match"), { correct_answer_key: "expected" }, { question: "q" }, "x"),
    );
    expect(missing.code).toBe("missing_input");
    expect(missing.message).toContain('no column "expected"');
    expect(missing.message).toContain("question");
    expect((await errorOf(evaluate(B("auto_contains"), { substring: "a" }, {}, null))).code).toBe("invalid_outputs");
    const bad = await errorOf(evaluate(B("auto_exact_match"), { case_sensitive: "no" }, { correct_answer: "a" }, "a"));
    expect(bad).toEqual({
      code: "invalid_parameters",
      message: 'parameter case_sensitive must be true or false; got "no"',
    });
  });

  it("contains, starts with, ends with, any, all and contains json", async () => {
    expect(await outputsOf(evaluate(B("auto_contains"), { substring: "Paris" }, {}, agentReply))).toEqual({
      success: true,
    });
    expect(await outputsOf(evaluate(B("auto_contains"), { substring: "paris" }, {}, "in Paris"))).toEqual({
      success: false,
    });
    expect(
      await outputsOf(evaluate(B("auto_contains"), { substring: "paris", case_sensitive: false }, {}, "in Paris")),
    ).toEqual({ success: true });
    expect(await outputsOf(evaluate(B("auto_starts_with"), { prefix: "The" }, {}, "The end"))).toEqual({
      success: true,
    });
    expect(await outputsOf(evaluate(B("auto_starts_with"), { prefix: "end" }, {}, "The end"))).toEqual({
      success: false,
    });
    expect(await outputsOf(evaluate(B("auto_ends_with"), { suffix: "end" }, {}, "The end"))).toEqual({ success: true });
    expect(await outputsOf(evaluate(B("auto_contains"), { substring: '"a":1' }, {}, { a: 1 }))).toEqual({
      success: true,
    });
    expect(await outputsOf(evaluate(B("auto_contains_any"), { substrings: ["x", "end"] }, {}, "The end"))).toEqual({
      success: true,
    });
    expect(await outputsOf(evaluate(B("auto_contains_all"), { substrings: ["x", "end"] }, {}, "The end"))).toEqual({
      success: false,
    });
    expect(
      await outputsOf(
        evaluate(B("auto_contains_all"), { substrings: ["THE", "END"], case_sensitive: false }, {}, "The end"),
      ),
    ).toEqual({ success: true });
    const notList = await errorOf(evaluate(B("auto_contains_any"), { substrings: "a,b" }, {}, "a"));
    expect(notList.message).toBe('parameter substrings must be a list of strings, e.g. ["a", "b"]; got "a,b"');
    expect((await errorOf(evaluate(B("auto_starts_with"), {}, {}, "a"))).message).toContain(
      "parameter prefix is required",
    );
    expect(await outputsOf(evaluate(B("auto_contains_json"), {}, {}, 'Sure: {"a": [1, 2]} done'))).toEqual({
      success: true,
    });
    expect(await outputsOf(evaluate(B("auto_contains_json"), {}, {}, "Sure: {a: 1}"))).toEqual({ success: false });
    expect(await outputsOf(evaluate(B("auto_contains_json"), {}, {}, "no braces"))).toEqual({ success: false });
  });

  it("regex searches in linear time, honours should-match and case, and refuses patterns RE2 cannot run", async () => {
    expect(
      await outputsOf(evaluate(B("auto_regex_test"), { regex_pattern: "\\d{3}-\\d{4}" }, {}, "call 555-1234 now")),
    ).toEqual({ success: true });
    expect(
      await outputsOf(
        evaluate(B("auto_regex_test"), { regex_pattern: "\\d{3}-\\d{4}", regex_should_match: false }, {}, "call me"),
      ),
    ).toEqual({ success: true });
    expect(await outputsOf(evaluate(B("auto_regex_test"), { regex_pattern: "^paris$" }, {}, "Paris"))).toEqual({
      success: false,
    });
    expect(
      await outputsOf(evaluate(B("auto_regex_test"), { regex_pattern: "^paris$", case_sensitive: false }, {}, "Paris")),
    ).toEqual({ success: true });
    const backref = await errorOf(evaluate(B("auto_regex_test"), { regex_pattern: "(a)\\1" }, {}, "aa"));
    expect(backref.code).toBe("invalid_parameters");
    expect(backref.message).toContain("regex_pattern is not a pattern this service can run");
    // A pattern that backtracks exponentially in a backtracking engine finishes at once here.
    const started = performance.now();
    const evil = await outputsOf(
      evaluate(B("auto_regex_test"), { regex_pattern: "^(a+)+$" }, {}, `${"a".repeat(5000)}!`),
    );
    expect(evil).toEqual({ success: false });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("unknown URIs are not runnable and fail with the list of known ones", async () => {
    expect(isRunnableEvaluatorUri("svc:builtin:auto_exact_match:v0")).toBe(true);
    expect(isRunnableEvaluatorUri("agenta:builtin:auto_regex_test:v0")).toBe(true);
    expect(isRunnableEvaluatorUri("svc:builtin:auto_exact_match:v9")).toBe(false);
    expect(isRunnableEvaluatorUri("svc:builtin:nope:v0")).toBe(false);
    expect(isRunnableEvaluatorUri("svc:builtin:constructor:v0")).toBe(false);
    expect(isRunnableEvaluatorUri("svc:custom:feedback:v0")).toBe(false);
    const unknown = await errorOf(evaluate("svc:builtin:nope:v0", {}, {}, "x"));
    expect(unknown.code).toBe("unknown_evaluator");
    expect(unknown.message).toContain("svc:builtin:auto_exact_match:v0");
    const feedback = await errorOf(evaluate("svc:custom:feedback:v0", {}, {}, "x"));
    expect(feedback.message).toContain("human feedback evaluator");
  });
});

import { describe, expect, it } from "vitest";
import { errorOf, evaluate, outputsOf } from "./run";

const MOCK = "svc:custom:mock:v0";

describe("mock evaluator", () => {
  it("pass, fail, score, reflect, echo, static", async () => {
    expect(await outputsOf(evaluate(MOCK, { key: "pass" }, {}, "x"))).toEqual({ score: 1, success: true });
    expect(await outputsOf(evaluate(MOCK, { key: "fail" }, {}, "x"))).toEqual({ score: 0, success: false });
    expect(await outputsOf(evaluate(MOCK, { key: "score", kwargs: { score: 0.7 } }, {}, "x"))).toEqual({
      score: 0.7,
      success: true,
    });
    expect(await outputsOf(evaluate(MOCK, { key: "score", kwargs: { score: 0.7, threshold: 0.8 } }, {}, "x"))).toEqual({
      score: 0.7,
      success: false,
    });
    expect(await outputsOf(evaluate(MOCK, { key: "reflect" }, {}, { country: "France" }))).toEqual({
      score: 1,
      success: true,
    });
    expect(await outputsOf(evaluate(MOCK, { key: "reflect" }, {}, { score: 0.25, success: false }))).toEqual({
      score: 0,
      success: false,
    });
    expect(await outputsOf(evaluate(MOCK, { key: "reflect" }, {}, "text"))).toEqual({ score: 0, success: false });
    expect(await outputsOf(evaluate(MOCK, { key: "echo" }, { country: "France" }, null))).toEqual({
      country: "France",
    });
    expect(await outputsOf(evaluate(MOCK, { key: "static", kwargs: { output: "hi" } }, {}, null))).toEqual({
      output: "hi",
    });
    expect((await outputsOf(evaluate(MOCK, { key: "messages" }, {}, null))).messages).toEqual([
      { role: "assistant", content: "mock reply" },
    ]);
  });

  it("error fails, delay waits then behaves, a stop cancels the wait, bad keys are named", async () => {
    expect(await errorOf(evaluate(MOCK, { key: "error", kwargs: { message: "boom" } }, {}, "x"))).toEqual({
      code: "mock_error",
      message: "boom",
    });
    expect(
      await outputsOf(evaluate(MOCK, { key: "delay", kwargs: { seconds: 0.01, then: "score", score: 0.2 } }, {}, "x")),
    ).toEqual({ score: 0.2, success: false });
    const stop = new AbortController();
    const started = performance.now();
    const pending = evaluate(MOCK, { key: "delay", kwargs: { seconds: 60 } }, {}, "x", { signal: stop.signal });
    // Kept: the stop must arrive while the evaluator is running, not before it starts.
    setTimeout(() => stop.abort(), 20);
    expect((await errorOf(pending)).code).toBe("cancelled");
    expect(performance.now() - started).toBeLessThan(2000);
    const bad = await errorOf(evaluate(MOCK, { key: "nope" }, {}, "x"));
    expect(bad.message).toContain("parameter key must be one of echo, static");
    const threshold = await errorOf(evaluate(MOCK, { key: "score", kwargs: { score: 0.5, threshold: 2 } }, {}, "x"));
    expect(threshold.message).toBe(
      "parameter kwargs.threshold must be a number greater than 0 and at most 1 (e.g. 0.5); got 2",
    );
  });
});

import { describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import type { AppContext } from "@/server/core/app-context";
import { errorOf, evaluate, outputsOf } from "./run";

const CODE = "svc:custom:code:v0";
const LEGACY = "svc:builtin:auto_custom_code_run:v0";
const app = { config: loadConfig({}) } as AppContext;
const inputs = { question: "Capital of France?", correct_answer: "Paris" };

const js = (
  script: string,
  parameters: Record<string, unknown> = {},
  extra: { outputs?: unknown; signal?: AbortSignal; timeoutMs?: number } = {},
) =>
  evaluate(CODE, parameters, inputs, extra.outputs ?? "Paris", {
    app,
    data: { script, runtime: "javascript" },
    signal: extra.signal,
    timeoutMs: extra.timeoutMs,
  });

describe("custom code evaluators", () => {
  it("javascript (QuickJS): numbers are scores, booleans success, objects kept, with inputs, outputs and trace", async () => {
    expect(
      await outputsOf(
        js("function evaluate(inputs, outputs) { return outputs === inputs.correct_answer ? 0.9 : 0.1; }"),
      ),
    ).toEqual({ score: 0.9, success: true });
    expect(await outputsOf(js("function evaluate(i, o) { return 0.4; }", { threshold: 0.3 }))).toEqual({
      score: 0.4,
      success: true,
    });
    expect(await outputsOf(js("function evaluate(i, o) { return o.length > 10; }"))).toEqual({
      score: 0,
      success: false,
    });
    const metrics = await outputsOf(
      evaluate(
        CODE,
        {},
        inputs,
        { answer: "Paris" },
        {
          app,
          data: {
            script:
              "async function evaluate(i, o, t) { return { exact: o.answer === i.correct_answer ? 1 : 0, trace: t.trace_id }; }",
            runtime: "node",
          },
          trace: { trace_id: "t1" },
        },
      ),
    );
    expect(metrics).toEqual({ exact: 1, trace: "t1" });
    expect(await outputsOf(js("function evaluate() { return 'fine'; }"))).toEqual({ result: "fine" });
  });

  it("the legacy URI reads parameters.code; version 1 passes the expected answer", async () => {
    const v1 = "function evaluate(app_params, inputs, output, correct_answer) { return output === correct_answer; }";
    expect(
      await outputsOf(evaluate(LEGACY, { code: v1, runtime: "javascript", version: "1" }, inputs, "Paris", { app })),
    ).toEqual({ score: 1, success: true });
    expect(
      (
        await errorOf(
          evaluate(
            LEGACY,
            { code: v1, runtime: "javascript", version: "1", correct_answer_key: "gold" },
            inputs,
            "Paris",
            { app },
          ),
        )
      ).code,
    ).toBe("missing_input");
  });

  it("python runs in the sandbox's CPython, never on the host", async () => {
    const code = [
      "import os",
      "def evaluate(inputs, outputs, trace):",
      "    return {'score': 1.0 if outputs == inputs['correct_answer'] else 0.0, 'host': os.path.exists('/etc/passwd')}",
    ].join("\n");
    expect(
      await outputsOf(evaluate(CODE, {}, inputs, "Paris", { app, data: { script: code, runtime: "python" } })),
    ).toEqual({ score: 1, host: false, success: true });
    const broken = await errorOf(
      evaluate(CODE, {}, inputs, "Paris", {
        app,
        data: { script: "def evaluate(i, o, t):\n    return 1 / 0", runtime: "python" },
      }),
    );
    expect(broken.code).toBe("code_error");
    expect(broken.message).toContain("ZeroDivisionError");
  }, 60_000);

  it("errors, missing code, typescript, no result and a stuck loop are failures with the reason", async () => {
    const thrown = await errorOf(js("function evaluate() { throw new Error('bad input'); }"));
    expect(thrown.code).toBe("code_error");
    expect(thrown.message).toContain("bad input");
    expect((await errorOf(js("function nope() {}"))).message).toContain("evaluate' is not defined");
    expect((await errorOf(evaluate(CODE, {}, inputs, "x", { app }))).message).toContain("the evaluator has no code");
    expect(
      (await errorOf(evaluate(CODE, {}, inputs, "x", { app, data: { script: "x", runtime: "typescript" } }))).message,
    ).toContain("runtime typescript cannot run here");
    expect((await errorOf(js("function evaluate() { return null; }"))).code).toBe("invalid_evaluator_result");
    const loop = await errorOf(js("function evaluate() { for (;;) {} }", {}, { timeoutMs: 300 }));
    expect(loop.message).toContain("stopped after 300 ms");
  });

  it("a stop ends a running script at once", async () => {
    const stop = new AbortController();
    const started = performance.now();
    const pending = js("function evaluate() { for (;;) {} }", {}, { signal: stop.signal, timeoutMs: 20_000 });
    // Kept: the stop must arrive while the script is running, not before it starts.
    setTimeout(() => stop.abort(), 100);
    expect((await errorOf(pending)).code).toBe("cancelled");
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

import { cancelled } from "../abortable-sleep";
import { CODE_RUNTIMES, runInSandbox, type CodeRuntimeName } from "../code-sandbox";
import { EvaluatorFailure, invalidParameter } from "../evaluator-failure";
import { correctAnswer, testcaseInputs } from "../evaluator-values";
import type { EvaluatorCall, EvaluatorHandler, EvaluatorResult } from "../evaluator-types";
import { thresholdParam } from "../parameters";
import { verdictOf } from "../verdict";

const VERSIONS = ["1", "2", "3"] as const;

function runtimeOf(value: unknown): CodeRuntimeName {
  const runtime = value === undefined || value === null ? "python" : value === "node" ? "javascript" : value;
  if (runtime === "typescript") {
    throw invalidParameter(
      "runtime typescript cannot run here: the sandbox's JavaScript engine (QuickJS) takes no type annotations; write the evaluator in javascript (remove the types) or python",
    );
  }
  if (!CODE_RUNTIMES.includes(runtime as CodeRuntimeName))
    throw invalidParameter(`runtime must be python or javascript; got ${JSON.stringify(value)}`);
  return runtime as CodeRuntimeName;
}

/** The call of the user's `evaluate`, appended to the code as the runtimes' `main`. */
function entryPoint(runtime: CodeRuntimeName, version: (typeof VERSIONS)[number]): string {
  const args = version === "1" ? ["app_params", "inputs", "output", "correct_answer"] : ["inputs", "outputs", "trace"];
  return runtime === "python"
    ? `\n\ndef main(**_svc_args):\n    return evaluate(${args.map((a) => `_svc_args["${a}"]`).join(", ")})\n`
    : `\n;function main(_svc_args) { return evaluate(${args.map((a) => `_svc_args[${JSON.stringify(a)}]`).join(", ")}); }\n`;
}

/** What `evaluate` returned, as outputs (see verdictOf); a list or text is kept under `result`. */
function outputsOf(value: unknown, threshold: number): Record<string, unknown> {
  const verdict = verdictOf(value, threshold);
  if (verdict) return verdict;
  if (value === null || value === undefined)
    throw new EvaluatorFailure(
      "invalid_evaluator_result",
      "evaluate returned nothing; return a number (score), a boolean (success) or an object of metrics",
    );
  return { result: value };
}

/**
 * Custom code: `auto_custom_code_run` (code in `parameters.code`) and `svc:custom:code:v0` (code
 * in `data.script` and `data.runtime`, falling back to the parameters). Version 1 calls
 * `evaluate(app_params, inputs, output, correct_answer)`, 2 and 3 `evaluate(inputs, outputs,
 * trace)`. The code runs in the sandboxed code-tool runtimes, with the code tools' limits.
 */
const codeEvaluator =
  (defaultVersion: (typeof VERSIONS)[number]): EvaluatorHandler =>
  async (call: EvaluatorCall): Promise<EvaluatorResult> => {
    const { parameters, request, ctx } = call;
    const code = request.data.script ?? parameters.code;
    if (typeof code !== "string" || code.trim() === "")
      throw invalidParameter(
        "the evaluator has no code: set data.script (or data.parameters.code) to code defining evaluate(inputs, outputs, trace)",
      );
    const runtime = runtimeOf(request.data.runtime ?? parameters.runtime);
    const version = String(parameters.version ?? request.data.version ?? defaultVersion);
    if (!VERSIONS.includes(version as (typeof VERSIONS)[number]))
      throw invalidParameter(`version must be "1", "2" or "3"; got ${JSON.stringify(version)}`);
    const threshold = thresholdParam(parameters);
    const inputs = testcaseInputs(request.inputs);
    const args =
      version === "1"
        ? { app_params: {}, inputs, output: request.outputs ?? null, correct_answer: correctAnswer(call) }
        : { inputs, outputs: request.outputs ?? null, trace: request.trace ?? null };
    const { sandbox } = ctx.app.config;
    const limits = { timeoutMs: ctx.timeoutMs ?? sandbox.commandTimeoutMs, memoryMb: sandbox.codeToolMemoryMb };
    const value = await runInSandbox(
      runtime,
      `${code}${entryPoint(runtime, version as (typeof VERSIONS)[number])}`,
      args,
      limits,
      ctx.signal,
    );
    if (ctx.signal.aborted) throw cancelled();
    return { outputs: outputsOf(value, threshold) };
  };

export const customCodeRun = codeEvaluator("3");
export const customCode = codeEvaluator("2");

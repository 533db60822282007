import { EvaluatorFailure, invalidParameter } from "../evaluator-failure";
import { isRecord, outputText, testcaseInputs } from "../evaluator-values";
import type { EvaluatorHandler } from "../evaluator-types";
import { stringParam, thresholdParam } from "../parameters";
import { postJson } from "../post-json";
import { verdictOf } from "../verdict";

const WEBHOOK_TIMEOUT_MS = 10_000;
const HOOK_TIMEOUT_MS = 30_000;

function parsed(text: string): { json: boolean; value: unknown } {
  try {
    return { json: true, value: JSON.parse(text) };
  } catch {
    return { json: false, value: text };
  }
}

/**
 * `auto_webhook_test`: POSTs `{inputs, output}` (the output as text) to `webhook_url`; the JSON
 * answer is the verdict: a number is a score, a boolean success, an object kept, a string kept
 * under `result`. An answer that is not JSON fails.
 */
export const webhookTest: EvaluatorHandler = async (call) => {
  const url = stringParam(call.parameters, "webhook_url");
  const threshold = thresholdParam(call.parameters);
  const what = `the webhook ${url}`;
  const text = await postJson(
    call.ctx,
    url,
    { inputs: testcaseInputs(call.request.inputs), output: outputText(call.request.outputs) },
    { timeoutMs: call.ctx.timeoutMs ?? WEBHOOK_TIMEOUT_MS, what, parameter: "parameter webhook_url" },
  );
  const reply = parsed(text);
  if (!reply.json)
    throw new EvaluatorFailure(
      "invalid_webhook_answer",
      `${what} answered with text that is not JSON: ${JSON.stringify(text.slice(0, 200))}; answer with a number, a boolean or an object`,
    );
  return { outputs: verdictOf(reply.value, threshold) ?? { result: reply.value } };
};

/**
 * `svc:custom:hook:v0`: POSTs `{inputs, parameters, outputs, trace, testcase}` to
 * `<data.url>/invoke` with `data.headers`; the JSON answer (or its text) is the result.
 */
export const customHook: EvaluatorHandler = async (call) => {
  const { data } = call.request;
  if (typeof data.url !== "string" || data.url === "")
    throw invalidParameter(
      "the hook evaluator has no data.url; set it to the base URL of your service (it receives POST <url>/invoke)",
    );
  const headers = data.headers ?? {};
  if (!isRecord(headers) || Object.values(headers).some((v) => typeof v !== "string"))
    throw invalidParameter("data.headers must be an object of header names to string values");
  const url = `${data.url.replace(/\/+$/, "")}/invoke`;
  const inputs = testcaseInputs(call.request.inputs);
  const text = await postJson(
    call.ctx,
    url,
    {
      inputs,
      parameters: call.parameters,
      outputs: call.request.outputs ?? null,
      trace: call.request.trace ?? null,
      testcase: inputs,
    },
    {
      headers: headers as Record<string, string>,
      timeoutMs: call.ctx.timeoutMs ?? HOOK_TIMEOUT_MS,
      what: `the hook ${url}`,
      parameter: "data.url",
    },
  );
  const reply = parsed(text);
  return { outputs: verdictOf(reply.value, thresholdParam(call.parameters)) ?? { result: reply.value } };
};

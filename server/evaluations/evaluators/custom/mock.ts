import { abortableSleep } from "../abortable-sleep";
import { EvaluatorFailure, invalidParameter } from "../evaluator-failure";
import { isRecord, testcaseInputs } from "../evaluator-values";
import type { EvaluatorCall, EvaluatorHandler, EvaluatorResult } from "../evaluator-types";
import { checkThreshold, DEFAULT_THRESHOLD } from "../parameters";

/** The longest `delay` accepted: a mock that waits longer is a mistake, not a test. */
const MAX_DELAY_SECONDS = 600;

const KEYS = ["echo", "static", "messages", "events", "pass", "fail", "score", "reflect", "error", "delay"] as const;
type MockKey = (typeof KEYS)[number];

function keyOf(value: unknown, where: string): MockKey {
  if (!KEYS.includes(value as MockKey))
    throw invalidParameter(`${where} must be one of ${KEYS.join(", ")}; got ${JSON.stringify(value)}`);
  return value as MockKey;
}

async function behave(
  key: MockKey,
  kwargs: Record<string, unknown>,
  call: EvaluatorCall,
  depth: number,
): Promise<Record<string, unknown>> {
  const { outputs } = call.request;
  switch (key) {
    case "echo":
      return { ...testcaseInputs(call.request.inputs) };
    case "static":
      return { output: kwargs.output ?? null };
    case "messages":
      return {
        messages: Array.isArray(kwargs.messages)
          ? kwargs.messages
          : [{ role: "assistant", content: String(kwargs.content ?? "mock reply") }],
      };
    case "events":
      return {
        events: Array.isArray(kwargs.events)
          ? kwargs.events
          : [{ type: "text", text: String(kwargs.content ?? "mock reply") }],
      };
    case "pass":
      return { score: 1.0, success: true };
    case "fail":
      return { score: 0.0, success: false };
    case "score": {
      const score = kwargs.score;
      if (typeof score !== "number" || !Number.isFinite(score))
        throw invalidParameter(`kwargs.score must be a number; got ${JSON.stringify(score)}`);
      const threshold =
        kwargs.threshold === undefined ? DEFAULT_THRESHOLD : checkThreshold(kwargs.threshold, "kwargs.threshold");
      return { score, success: score >= threshold };
    }
    case "reflect": {
      // Scores 1 only when it sees the application's own output, never a sibling evaluator's.
      const reflects =
        isRecord(outputs) && Object.keys(outputs).length > 0 && !("score" in outputs) && !("success" in outputs);
      return { score: reflects ? 1.0 : 0.0, success: reflects };
    }
    case "error":
      throw new EvaluatorFailure(
        "mock_error",
        typeof kwargs.message === "string" ? kwargs.message : "the mock evaluator was asked to fail (key error)",
      );
    case "delay": {
      const seconds = kwargs.seconds ?? 0;
      if (typeof seconds !== "number" || seconds < 0 || seconds > MAX_DELAY_SECONDS) {
        throw invalidParameter(
          `kwargs.seconds must be a number from 0 to ${MAX_DELAY_SECONDS}; got ${JSON.stringify(seconds)}`,
        );
      }
      await abortableSleep(seconds * 1000, call.ctx.signal);
      const then = keyOf(kwargs.then ?? "pass", "kwargs.then");
      if (then === "delay" && depth > 3) throw invalidParameter("kwargs.then chains delays too deep");
      return behave(then, kwargs, call, depth + 1);
    }
  }
}

/**
 * `svc:custom:mock:v0`: a scripted evaluator (and application) for flow tests, no model and no
 * sandbox. `parameters = {key, kwargs}`; the keys and what they return are in the README.
 */
export const mock: EvaluatorHandler = async (call): Promise<EvaluatorResult> => {
  const key = keyOf(call.parameters.key, "parameter key");
  const kwargs = call.parameters.kwargs ?? {};
  if (!isRecord(kwargs)) throw invalidParameter(`parameter kwargs must be an object; got ${JSON.stringify(kwargs)}`);
  return { outputs: await behave(key, kwargs, call, 0) };
};

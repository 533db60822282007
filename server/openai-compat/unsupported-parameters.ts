import { z } from "zod";

/**
 * OpenAI request fields this door refuses when set (null and absent are fine): the revision
 * decides its model settings. An agent template has no sampling setting a request could
 * override, and a prompt application's `llm_config` is what the application is (this
 * folder's README, "Overrides"). Refusing beats accepting a knob that would do nothing.
 */
const SAMPLING = [
  "temperature",
  "top_p",
  "max_tokens",
  "max_completion_tokens",
  "max_output_tokens",
  "presence_penalty",
  "frequency_penalty",
  "seed",
  "stop",
  "logit_bias",
  "reasoning_effort",
  "reasoning",
  "verbosity",
];
const OTHER: Record<string, string> = {
  n: "one choice per call is served",
  logprobs: "log probabilities are not returned",
  top_logprobs: "log probabilities are not returned",
  response_format: "the agent's revision decides its output format",
  text: "the agent's revision decides its output format",
  modalities: "text output only",
  audio: "text output only",
  prediction: "predicted outputs are not served",
  web_search_options: "OpenAI's hosted tools are not served; give the agent its own tools",
  service_tier: "the agent's connection decides",
  background: "calls run in the foreground",
  truncation: "the agent's runner decides",
  conversation: "use previous_response_id",
  prompt: "stored OpenAI prompts are not served; the agent's revision is the prompt",
  max_tool_calls: "the runner's step limit applies",
};

export const UNSUPPORTED_PARAMETERS = [...SAMPLING, ...Object.keys(OTHER)];

function reason(name: string): string {
  return (
    OTHER[name] ??
    "the revision decides its model settings (an agent template has none to override; a prompt application's llm_config fixes them)"
  );
}

/** Shape entries for the request schema: each unsupported field parses, then `refuseUnsupported` names it. */
export const unsupportedFields = Object.fromEntries(
  UNSUPPORTED_PARAMETERS.map((name) => [name, z.unknown().optional()]),
);

export function refuseUnsupported(body: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const name of UNSUPPORTED_PARAMETERS) {
    if (body[name] === undefined || body[name] === null) continue;
    ctx.addIssue({
      code: "custom",
      path: [name],
      message: `${name} is not supported here: ${reason(name)}; remove it`,
    });
  }
}

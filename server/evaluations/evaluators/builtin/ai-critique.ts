import type { ModelMessage, OutputInterface } from "ai";
import {
  renderTemplate,
  TEMPLATE_FORMATS,
  type TemplateFormat,
  type TemplateProblem,
} from "@/server/core/render-template";
import { systemPromptParts, tracedModelCall, type ResolvedConnection } from "@/server/agent-runs";
import { isAppError } from "@/server/core/errors";
import { cancelled } from "../abortable-sleep";
import { EvaluatorFailure, invalidParameter } from "../evaluator-failure";
import { isRecord, testcaseInputs } from "../evaluator-values";
import type { EvaluatorCall, EvaluatorHandler, EvaluatorResult, EvaluatorUsage } from "../evaluator-types";
import { CallAborted, withCallLimit } from "../external-call";
import { enumParam, optionalStringParam, stringParam, thresholdParam } from "../parameters";
import { providerFailure } from "../provider-failure";
import { resolveModel } from "../resolve-model";
import { judgeVerdict } from "../verdict";

/** The catalog template's default judge model. */
export const DEFAULT_JUDGE_MODEL = "openai/gpt-5-mini";
const JUDGE_TIMEOUT_MS = 120_000;

/** What the judge answers when no json_schema is given: a score from 0 to 1. */
export const DEFAULT_JUDGE_SCHEMA = {
  type: "object",
  properties: {
    score: { type: "number", minimum: 0, maximum: 1, description: "The grade, from 0 (worst) to 1 (best)." },
  },
  required: ["score"],
  additionalProperties: false,
};

const RESPONSE_TYPES = ["text", "json_object", "json_schema"] as const;
const ROLES: Record<string, ModelMessage["role"]> = {
  system: "system",
  developer: "system",
  user: "user",
  assistant: "assistant",
};

/** `version` picks the reference implementation's default template format (2: fstring, 3 and 4: curly, 5: mustache). */
function templateFormat(params: Record<string, unknown>): TemplateFormat {
  const version = params.version === undefined || params.version === null ? undefined : String(params.version);
  const byVersion: TemplateFormat =
    version === "2" ? "fstring" : version === "3" || version === "4" ? "curly" : "mustache";
  return enumParam(params, "template_format", TEMPLATE_FORMATS, byVersion);
}

/** `json_schema` as the reference implementation writes it ({name, schema, strict}) or as a bare JSON Schema. */
function judgeSchema(params: Record<string, unknown>): { name: string; schema: Record<string, unknown> } {
  const given = params.json_schema;
  if (given === undefined || given === null) return { name: "grade", schema: DEFAULT_JUDGE_SCHEMA };
  if (!isRecord(given))
    throw invalidParameter(
      `parameter json_schema must be a JSON Schema object (or {name, schema, strict}); got ${JSON.stringify(given)}`,
    );
  if (isRecord(given.schema))
    return { name: typeof given.name === "string" && given.name ? given.name : "grade", schema: given.schema };
  return { name: "grade", schema: given };
}

function renderContext(call: EvaluatorCall, schema: unknown): Record<string, unknown> {
  const inputs = testcaseInputs(call.request.inputs);
  const context: Record<string, unknown> = { parameters: call.parameters };
  const key = optionalStringParam(call.parameters, "correct_answer_key");
  if (key !== undefined && inputs[key] !== undefined)
    Object.assign(context, { ground_truth: inputs[key], correct_answer: inputs[key], reference: inputs[key] });
  Object.assign(context, inputs, {
    inputs,
    prediction: call.request.outputs,
    outputs: call.request.outputs,
    trace: call.request.trace ?? null,
    json_schema: schema,
  });
  return context;
}

function judgeMessages(call: EvaluatorCall, context: Record<string, unknown>): ModelMessage[] {
  const template = call.parameters.prompt_template;
  if (!Array.isArray(template) || template.length === 0) {
    throw invalidParameter(
      'parameter prompt_template must be a non-empty list of messages, e.g. [{"role": "system", "content": "Grade ..."}, {"role": "user", "content": "{{outputs}}"}]',
    );
  }
  const format = templateFormat(call.parameters);
  return template.map((message, i) => {
    const where = `prompt_template[${i}]`;
    if (!isRecord(message) || typeof message.content !== "string" || typeof message.role !== "string")
      throw invalidParameter(`${where} must be {role, content} with text content`);
    const role = ROLES[message.role];
    if (!role)
      throw invalidParameter(`${where}.role must be one of ${Object.keys(ROLES).join(", ")}; got "${message.role}"`);
    const content = renderTemplate(message.content, format, context, (problem) =>
      invalidParameter(judgeTemplateProblem(`${where}.content`, problem, context)),
    );
    return { role, content } as ModelMessage;
  });
}

/** The judge's placeholders come from the render context, so a problem names what it has. */
function judgeTemplateProblem(where: string, problem: TemplateProblem, context: Record<string, unknown>): string {
  return problem.kind === "missing"
    ? `${where} uses the placeholder ${problem.placeholder}, which the render context does not have; available: ${Object.keys(context).join(", ")}`
    : `${where} uses a mustache section, partial or comment tag ({{#…}}, {{^…}}, {{/…}}, {{>…}}, {{!…}}); only {{name}} placeholders are rendered`;
}

/** A response format that leaves the answer as text: the verdict is read by judgeVerdict. */
function responseFormat(
  type: (typeof RESPONSE_TYPES)[number],
  schema: { name: string; schema: Record<string, unknown> },
): OutputInterface<string> | undefined {
  if (type === "text") return undefined;
  const format =
    type === "json_object"
      ? { type: "json" as const }
      : { type: "json" as const, schema: schema.schema, name: schema.name };
  return {
    name: "judge",
    responseFormat: Promise.resolve(format),
    parseCompleteOutput: async ({ text }: { text: string }) => text,
    parsePartialOutput: async () => undefined,
    createElementStreamTransform: () => undefined,
  } as unknown as OutputInterface<string>;
}

/**
 * `auto_ai_critique`: a judge model grades the output. The prompt is rendered from the testcase,
 * the output and the trace; the answer is read as JSON (a number, a boolean or an object).
 * The model is reached through the project's own provider connections; the call is traced and
 * priced as the service's other model calls are.
 */
export const aiCritique: EvaluatorHandler = async (call): Promise<EvaluatorResult> => {
  const { parameters, ctx } = call;
  const threshold = thresholdParam(parameters);
  const schema = judgeSchema(parameters);
  const version =
    parameters.version === undefined || parameters.version === null ? undefined : String(parameters.version);
  const responseType = enumParam(
    parameters,
    "response_type",
    RESPONSE_TYPES,
    version === "2" || version === "3" ? "text" : "json_schema",
  );
  const messages = judgeMessages(call, renderContext(call, schema.schema));
  const modelName = stringParam(parameters, "model", DEFAULT_JUDGE_MODEL);
  const connection = await resolveModel(ctx, modelName, optionalStringParam(parameters, "connection"), "model");
  const { text, usage } = await gradeWithModel(ctx, connection, messages, responseFormat(responseType, schema));
  const outputs = judgeVerdict(text, threshold);
  if (!outputs) {
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    throw new EvaluatorFailure(
      "invalid_judge_answer",
      `the judge model answered ${JSON.stringify(shown)}, which is not a JSON number, boolean or object; ask for JSON in the prompt or set response_type to json_schema`,
    );
  }
  return { outputs, usage };
};

/**
 * The judge's one model call through `tracedModelCall`, as the service's other own calls go: the
 * project's controls (a refusal is the cell's failure, naming what refused), the call streamed
 * with no SDK retries (the engine retries), priced, and recorded as a trace named after the cell's
 * evaluator (`ctx.traceAs`, harness `judge`), a failed call as the trace's error.
 */
async function gradeWithModel(
  ctx: EvaluatorCall["ctx"],
  connection: ResolvedConnection,
  messages: ModelMessage[],
  output: OutputInterface<string> | undefined,
): Promise<{ text: string; usage: EvaluatorUsage }> {
  let failure: EvaluatorFailure | undefined;
  try {
    const call = await withCallLimit(ctx.signal, ctx.timeoutMs ?? JUDGE_TIMEOUT_MS, (abortSignal) =>
      tracedModelCall(ctx.app, {
        projectId: ctx.projectId,
        connection,
        agent: ctx.traceAs ?? { name: "auto_ai_critique", references: {} },
        harness: "judge",
        messages: messages.map((m) => ({ role: m.role, content: m.content as string })),
        request: { ...systemPromptParts(undefined, messages), output, maxRetries: 0, abortSignal },
        // Classified once, from the error itself: the trace records the message the cell gets.
        describeFailure: (error) => {
          const timedOut = abortSignal.aborted && !ctx.signal.aborted;
          failure = providerFailure(error, connection, "the judge model could not grade", timedOut);
          return failure.message;
        },
      }),
    );
    if (call.failure) throw failure ?? new EvaluatorFailure("provider_error", call.failure);
    return {
      text: call.text,
      usage: {
        promptTokens: call.usage.prompt,
        completionTokens: call.usage.completion,
        ...(call.costUsd !== undefined ? { costUsd: call.costUsd } : {}),
      },
    };
  } catch (error) {
    if (ctx.signal.aborted) throw cancelled();
    if (error instanceof EvaluatorFailure) throw error;
    // A refusal (allowlist, budget, rate limit) names what refused; the engine records it as the cell's failure.
    if (isAppError(error)) throw new EvaluatorFailure(error.code, `the judge model was not called: ${error.message}`);
    throw providerFailure(
      error,
      connection,
      "the judge model could not grade",
      error instanceof CallAborted && error.timedOut,
    );
  }
}

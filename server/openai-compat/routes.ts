import { TURN_ERROR_CODES } from "@/server/agent-runs";
import type { ErrorCode } from "@/server/core/errors";
import { defineRoute } from "@/server/http/route";
import { chatCompletionWire, responseObjectWire, TURN_HEADERS } from "@/server/streams";
import { chatCompletions } from "./chat-completions";
import { chatCompletionRequestSchema } from "./chat-request";
import { listModels, modelEntryWire, modelListWire, retrieveModel } from "./list-models";
import { createResponse } from "./responses";
import { responsesRequestSchema } from "./responses-request";

/** What both doors answer when the agent's turn is refused before it starts: preparing it, and the controls' check. */
const TURN_ERRORS: ErrorCode[] = [
  ...TURN_ERROR_CODES,
  "budget_exceeded",
  "invalid_image",
  "invalid_model",
  "invalid_tool_arguments",
  "missing_variable",
  "model_not_allowed",
  "model_not_found",
  "not_a_prompt_application",
  "unsupported_prompt",
  "variables_not_used",
];

/** The OpenAI-compatible door; served by its own router (OpenAI-shaped errors, `Bearer` keys). */
export const openAiRoutes = [
  defineRoute({
    method: "POST",
    path: "/v1/chat/completions",
    auth: "api_key",
    keyScope: "run",
    tag: "openai",
    errorShape: "openai",
    summary:
      "OpenAI chat completions against an agent named by `model` (`<agent>`, `<agent>@<environment>`, `<agent>@<variant>:<version>`); JSON or SSE chunks ending with [DONE] (mutating: runs the model)",
    body: chatCompletionRequestSchema,
    response: chatCompletionWire,
    headers: TURN_HEADERS,
    errors: [...TURN_ERRORS, "agent_run_failed", "invalid_stream_options"],
    handler: async ({ ctx, body }) => chatCompletions(ctx.app, ctx.principal, ctx.request, body),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/responses",
    auth: "api_key",
    keyScope: "run",
    tag: "openai",
    errorShape: "openai",
    summary:
      "OpenAI Responses against an agent named by `model`; `previous_response_id` continues in the same agent session; JSON or SSE events (mutating: runs the model)",
    body: responsesRequestSchema,
    response: responseObjectWire,
    headers: TURN_HEADERS,
    errors: [...TURN_ERRORS, "item_reference_not_supported", "previous_response_not_found", "session_mismatch"],
    handler: async ({ ctx, body }) => createResponse(ctx.app, ctx.principal, ctx.request, body),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/models",
    auth: "api_key",
    keyScope: "run",
    tag: "openai",
    errorShape: "openai",
    summary: "What the key's project can call: each agent, and `<agent>@<environment>` for each environment running it",
    response: modelListWire,
    handler: async ({ ctx }) => listModels(ctx.app.db, ctx.principal),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/models/{model}",
    auth: "api_key",
    keyScope: "run",
    tag: "openai",
    errorShape: "openai",
    summary: "One entry of /v1/models, or 404 model_not_found",
    response: modelEntryWire,
    errors: ["model_not_found"],
    handler: async ({ ctx, params }) => retrieveModel(ctx.app.db, ctx.principal, params.model),
  }),
];

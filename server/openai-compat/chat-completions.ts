import type { Principal } from "@/server/auth";
import { BadRequestError } from "@/server/core/errors";
import type { AppContext } from "@/server/core/app-context";
import { keepaliveStream, OpenAiChatProjection, openAiChatStream, sseStream, type NativeEvent } from "@/server/streams";
import { chatToNative, requireInput } from "./chat-messages";
import type { ChatCompletionRequest } from "./chat-request";
import { jsonResponse, runFailedResponse, sseResponse } from "./door-response";
import { startDoorTurn } from "./start-door-turn";

/** `POST /v1/chat/completions`: one agent run, answered as a completion or as chunks ending with `[DONE]`. */
export async function chatCompletions(
  app: AppContext,
  principal: Principal,
  request: Request,
  body: ChatCompletionRequest,
): Promise<Response> {
  if (body.stream_options && !body.stream) {
    throw new BadRequestError("stream_options is only allowed with stream: true", "invalid_stream_options", [
      { path: "stream_options", message: "needs stream: true" },
    ]);
  }
  const messages = chatToNative(body.messages);
  requireInput(messages, "messages");
  const turn = await startDoorTurn(app, principal, request, {
    model: body.model,
    messages,
    tools: (body.tools ?? []).map((tool) => tool.function),
    sessionId: body.session_id,
    user: body.user,
    unattended: body.unattended,
    variables: body.variables,
  });
  const options = {
    id: `chatcmpl-${turn.trace.traceId}`,
    model: body.model,
    created: Math.floor(Date.now() / 1000),
    includeUsage: Boolean(body.stream_options?.include_usage),
  };
  if (body.stream) {
    const text = turn.events
      .pipeThrough(openAiChatStream(options))
      .pipeThrough(sseStream({ sentinel: true }))
      .pipeThrough(keepaliveStream(app.config.agentRuns.keepaliveMs));
    return sseResponse(text, turn.headers);
  }
  const projection = new OpenAiChatProjection(options);
  for await (const event of turn.events as unknown as AsyncIterable<NativeEvent>) projection.push(event);
  projection.end();
  if (projection.errors.length) return runFailedResponse(projection.errors, turn.headers);
  return jsonResponse(200, projection.completion(), turn.headers);
}

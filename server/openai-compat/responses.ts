import type { Principal } from "@/server/auth";
import { BadRequestError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { logger } from "@/server/core/logger";
import type { AppContext } from "@/server/core/app-context";
import {
  keepaliveStream,
  OpenAiResponsesProjection,
  openAiResponsesStream,
  sseStream,
  type NativeEvent,
  type NativeMessage,
  type ResponseStreamEvent,
} from "@/server/streams";
import { requireInput } from "./chat-messages";
import { jsonResponse, sseResponse } from "./door-response";
import { loadPreviousResponse, responseWireId, storeResponse } from "./response-store";
import { responsesToNative } from "./responses-input";
import type { ResponsesRequest } from "./responses-request";
import { startDoorTurn } from "./start-door-turn";
import { turnMessages } from "./turn-messages";

/**
 * `POST /v1/responses`: one agent run answered as a `response` object or its event stream. The
 * conversation through this response is stored before `response.completed` goes out, so a client
 * that continues at once with `previous_response_id` finds it; the continuation runs in the same
 * agent session.
 */
export async function createResponse(
  app: AppContext,
  principal: Principal,
  request: Request,
  body: ResponsesRequest,
): Promise<Response> {
  const previous = body.previous_response_id
    ? await loadPreviousResponse(app.db, principal.projectId, body.previous_response_id)
    : undefined;
  if (previous && body.session_id && body.session_id !== previous.sessionId) {
    throw new BadRequestError(
      "session_id differs from the session of previous_response_id; send one or the other",
      "session_mismatch",
      [{ path: "session_id", message: "conflicts with previous_response_id" }],
    );
  }
  const history: NativeMessage[] = [...(previous?.messages ?? []), ...responsesToNative(body.input)];
  const messages: NativeMessage[] = body.instructions
    ? [{ role: "system", content: [{ type: "text", text: body.instructions }] }, ...history]
    : history;
  requireInput(messages, "input");
  const turn = await startDoorTurn(app, principal, request, {
    model: body.model,
    messages,
    tools: body.tools ?? [],
    sessionId: previous?.sessionId ?? body.session_id,
    unattended: body.unattended,
    variables: body.variables,
  });
  const rowId = newId();
  const options = {
    id: responseWireId(rowId),
    model: body.model,
    createdAt: Math.floor(Date.now() / 1000),
    previousResponseId: body.previous_response_id ?? null,
  };
  const collected: NativeEvent[] = [];
  const stored = turn.events.pipeThrough(
    new TransformStream<NativeEvent, NativeEvent>({
      async transform(event, controller) {
        collected.push(event);
        if (event.type === "done" && body.store !== false) {
          const row = {
            id: rowId,
            projectId: principal.projectId,
            sessionId: turn.sessionId,
            model: body.model,
            messages: [...history, ...turnMessages(collected)],
          };
          await storeResponse(app.db, row).catch((error: unknown) =>
            logger.error({ err: error, responseId: options.id }, "storing an OpenAI response failed"),
          );
        }
        controller.enqueue(event);
      },
    }),
  );
  if (body.stream) {
    const text = stored
      .pipeThrough(openAiResponsesStream(options))
      .pipeThrough(sseStream<ResponseStreamEvent>({ sentinel: false, event: (value) => value.type }))
      .pipeThrough(keepaliveStream(app.config.agentRuns.keepaliveMs));
    return sseResponse(text, turn.headers);
  }
  const projection = new OpenAiResponsesProjection(options);
  for await (const event of stored as unknown as AsyncIterable<NativeEvent>) projection.push(event);
  projection.end();
  return jsonResponse(200, projection.response(), turn.headers);
}

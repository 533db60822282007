/**
 * A finished JSON answer, before it is a `Response`: the node:http door writes it with one
 * `writeHead` + `end` (no web streams), the Next.js door wraps it in a `Response`.
 */
export interface JsonReply {
  status: number;
  /** The serialised body; null for 204. */
  body: string | null;
  headers: Record<string, string>;
}

/** What the router answers: a JSON reply, or a `Response` a handler built itself (streams, cookies). */
export type Reply = JsonReply | Response;

const SERIALIZED = Symbol.for("agent-service.serialized-json");

/**
 * A JSON answer serialised ahead of time (an answer kept in memory, serialised once): the router
 * writes its text as is instead of calling `JSON.stringify` per request.
 */
export interface SerializedJson {
  readonly [SERIALIZED]: true;
  readonly text: string;
}

export function serializedJson(value: unknown): SerializedJson {
  return { [SERIALIZED]: true, text: JSON.stringify(value) };
}

function isSerialized(body: unknown): body is SerializedJson {
  return typeof body === "object" && body !== null && SERIALIZED in body;
}

export function jsonReply(
  status: number,
  body: unknown,
  requestId: string,
  headers: Record<string, string> = {},
): JsonReply {
  return {
    status,
    body: status === 204 ? null : isSerialized(body) ? body.text : JSON.stringify(body),
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, ...headers },
  };
}

export function toResponse(reply: Reply): Response {
  return reply instanceof Response ? reply : new Response(reply.body, { status: reply.status, headers: reply.headers });
}

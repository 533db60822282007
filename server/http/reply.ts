/**
 * A finished JSON answer, before it is a `Response`: the node:http door writes it with one
 * `writeHead` + `end` (no web streams), the Next.js door wraps it in a `Response`.
 */
export interface JsonReply {
  status: number;
  /** The serialised body; null for 204. */
  body: string | null;
  /** The body's length in bytes, when known ahead (an answer serialised once). */
  byteLength?: number;
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
  readonly byteLength: number;
  /** Headers that belong to this answer (which revision served a retrieve), sent with it. */
  readonly headers?: Record<string, string>;
}

export function serializedJson(value: unknown, headers?: Record<string, string>): SerializedJson {
  const text = JSON.stringify(value);
  return { [SERIALIZED]: true, text, byteLength: Buffer.byteLength(text), headers };
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
  const serialized = status !== 204 && isSerialized(body);
  return {
    status,
    body: status === 204 ? null : serialized ? body.text : JSON.stringify(body),
    byteLength: serialized ? body.byteLength : undefined,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "x-request-id": requestId,
      ...(serialized ? body.headers : undefined),
      ...headers,
    },
  };
}

/**
 * An answer without a body (a route declaring `noJsonBody`: 202 accepted, 204 no content), whatever
 * its handler returned: a declared empty answer has nothing to serialise, so writing it cannot fail.
 */
export function emptyReply(status: number, requestId: string): JsonReply {
  // 204 and 304 must not carry a Content-Length; any other status says its empty body is complete.
  const length: Record<string, string> = status === 204 || status === 304 ? {} : { "content-length": "0" };
  return { status, body: null, headers: { "x-request-id": requestId, ...length } };
}

export function toResponse(reply: Reply): Response {
  return reply instanceof Response ? reply : new Response(reply.body, { status: reply.status, headers: reply.headers });
}

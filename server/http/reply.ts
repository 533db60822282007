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

export function jsonReply(
  status: number,
  body: unknown,
  requestId: string,
  headers: Record<string, string> = {},
): JsonReply {
  return {
    status,
    body: status === 204 ? null : JSON.stringify(body),
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, ...headers },
  };
}

export function toResponse(reply: Reply): Response {
  return reply instanceof Response ? reply : new Response(reply.body, { status: reply.status, headers: reply.headers });
}

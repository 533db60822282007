import { jsonReply, toResponse } from "./reply";

export function jsonResponse(
  status: number,
  body: unknown,
  requestId: string,
  headers: Record<string, string> = {},
): Response {
  return toResponse(jsonReply(status, body, requestId, headers));
}

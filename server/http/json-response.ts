export function jsonResponse(status: number, body: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  const text = status === 204 ? null : JSON.stringify(body);
  return new Response(text, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, ...headers },
  });
}

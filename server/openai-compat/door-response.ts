import { SSE_HEADERS } from "@/server/streams";
import type { OpenAiErrorBody } from "./openai-error";

/** A JSON answer of the door with the run's headers. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "content-type": "application/json; charset=utf-8" },
  });
}

/** An SSE answer of the door with the run's headers. */
export function sseResponse(text: ReadableStream<string>, headers: Record<string, string>): Response {
  return new Response(text.pipeThrough(new TextEncoderStream()), {
    status: 200,
    headers: { ...headers, ...SSE_HEADERS },
  });
}

/** A run that failed after it started, for a caller that asked for one JSON answer: the provider's failure, as a gateway reports it. */
export function runFailedResponse(errors: string[], headers: Record<string, string>): Response {
  const body: OpenAiErrorBody = {
    error: { message: errors.join("\n"), type: "server_error", param: null, code: "agent_run_failed" },
  };
  return jsonResponse(502, body, headers);
}

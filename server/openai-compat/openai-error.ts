import type { Logger } from "@/server/core/logger";
import { errorReply } from "@/server/http/error-response";
import type { JsonReply } from "@/server/http/reply";
import { errorText } from "@/shared/error-text";

export type OpenAiErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "insufficient_quota"
  | "rate_limit_error"
  | "server_error";

export interface OpenAiErrorBody {
  error: { message: string; type: OpenAiErrorType; param: string | null; code: string };
}

/**
 * The router's error mapping (statuses, headers, the 500 that leaks nothing), re-dressed in
 * OpenAI's shape: `{error: {message, type, param, code}}`. `param` is the first field a schema or
 * door error names; `code` is the service's stable code.
 */
export function openAiErrorReply(error: unknown, requestId: string, log: Logger): JsonReply {
  const reply = errorReply(error, requestId, log);
  const project = JSON.parse(reply.body ?? "{}") as {
    code?: string;
    errors?: Array<{ path: string }>;
  };
  const body: OpenAiErrorBody = {
    error: {
      message: errorText(project) ?? "Request failed",
      type: errorType(reply.status),
      param: project.errors?.[0]?.path || null,
      code: project.code ?? "error",
    },
  };
  return { ...reply, body: JSON.stringify(body) };
}

function errorType(status: number): OpenAiErrorType {
  if (status === 401) return "authentication_error";
  if (status === 402) return "insufficient_quota";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

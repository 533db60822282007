import { ZodError } from "zod";
import {
  AppError,
  BadRequestError,
  ConflictError,
  MethodNotAllowedError,
  SchemaValidationError,
  TooManyRequestsError,
} from "@/server/core/errors";
import type { Logger } from "@/server/core/logger";
import { isUniqueViolation } from "@/server/db";
import { zodIssuesToFieldErrors } from "@/server/core/zod-issues";
import { jsonReply, toResponse, type JsonReply } from "./reply";

/** PostgreSQL error codes that can only come from input we let through, mapped so they are never a 500. */
function fromDatabaseError(error: unknown): AppError | null {
  if (isUniqueViolation(error))
    return new ConflictError("A resource with the same unique value already exists", "duplicate").structured();
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") {
      if (code === "22P02" || code === "22007" || code === "22008")
        return new BadRequestError("A value in the request has an invalid format", "invalid_value");
      if (code === "22001") return new BadRequestError("A value in the request is too long", "value_too_long");
      if (code === "22P05" || code === "22021")
        return new BadRequestError(
          "Text in the request contains the NUL character (\\u0000), which cannot be stored",
          "invalid_character",
        );
      if (code === "54001") return new BadRequestError("The request is too deeply nested", "too_complex");
    }
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return new SchemaValidationError(zodIssuesToFieldErrors(error));
  return fromDatabaseError(error);
}

/**
 * The one place errors become HTTP responses. A 500 says only that it happened and its request id.
 * `detail` is the text, or `{message, code, ...fields}` for an error marked `structuredDetail`
 * (the conditions whose answer in the reference implementation is an object, and every 500);
 * fields and `code` are also at the top level either way, so a client reads one place whatever the
 * form.
 */
export function errorResponse(error: unknown, requestId: string, log: Logger): Response {
  return toResponse(errorReply(error, requestId, log));
}

/** `errorResponse` before it is a `Response`, for the node:http door. */
export function errorReply(error: unknown, requestId: string, log: Logger): JsonReply {
  const appError = toAppError(error);
  if (!appError) {
    log.error({ err: error }, "unhandled error");
    const message = `Internal server error; quote request id ${requestId} when reporting it`;
    // Structured as the reference implementation's 500 (`{message, operation_id}`); the request id
    // is ours.
    return jsonReply(
      500,
      { detail: { message, code: "internal_error", request_id: requestId }, code: "internal_error" },
      requestId,
    );
  }
  if (appError.status >= 500) log.error({ err: appError }, "server error");
  const headers: Record<string, string> = { ...appError.headers };
  if (appError instanceof MethodNotAllowedError) headers.allow = appError.allow.join(", ");
  if (appError instanceof TooManyRequestsError) headers["retry-after"] = String(appError.retryAfterSeconds);
  const body: Record<string, unknown> = {
    ...appError.fields,
    detail: appError.structuredDetail
      ? { message: appError.message, code: appError.code, ...appError.fields }
      : appError.message,
    code: appError.code,
  };
  if (appError.errors) body.errors = appError.errors;
  return jsonReply(appError.status, body, requestId, headers);
}

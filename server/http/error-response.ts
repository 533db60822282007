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
import { zodIssuesToFieldErrors } from "@/server/core/zod-issues";
import { jsonReply, toResponse, type JsonReply } from "./reply";

/** PostgreSQL error codes that can only come from input we let through, mapped so they are never a 500. */
function fromDatabaseError(error: unknown): AppError | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") {
      if (code === "23505")
        return new ConflictError("A resource with the same unique value already exists", "duplicate");
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

/** The one place errors become HTTP responses. A 500 says only that it happened and its request id. */
export function errorResponse(error: unknown, requestId: string, log: Logger): Response {
  return toResponse(errorReply(error, requestId, log));
}

/** `errorResponse` before it is a `Response`, for the node:http door. */
export function errorReply(error: unknown, requestId: string, log: Logger): JsonReply {
  const appError = toAppError(error);
  if (!appError) {
    log.error({ err: error }, "unhandled error");
    return jsonReply(
      500,
      { detail: `Internal server error; quote request id ${requestId} when reporting it`, code: "internal_error" },
      requestId,
    );
  }
  if (appError.status >= 500) log.error({ err: appError }, "server error");
  const headers: Record<string, string> = { ...appError.headers };
  if (appError instanceof MethodNotAllowedError) headers.allow = appError.allow.join(", ");
  if (appError instanceof TooManyRequestsError) headers["retry-after"] = String(appError.retryAfterSeconds);
  const body: Record<string, unknown> = { ...appError.fields, detail: appError.message, code: appError.code };
  if (appError.errors) body.errors = appError.errors;
  return jsonReply(appError.status, body, requestId, headers);
}

import { TRPCError, type TRPCDefaultErrorShape, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { AppError, type FieldError } from "@/server/core/errors";
import { logger } from "@/server/core/logger";
import { toAppError } from "@/server/http/error-response";

/**
 * The one place the playground's errors become tRPC errors: an AppError keeps its status, stable
 * code and message; anything else is a 500 that says nothing about its cause (the log has it).
 */

// Our statuses onto tRPC's codes; a status missing here falls back to the nearest class.
const CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  412: "PRECONDITION_FAILED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  501: "NOT_IMPLEMENTED",
  503: "SERVICE_UNAVAILABLE",
};

export function trpcCodeForStatus(status: number): TRPC_ERROR_CODE_KEY {
  return CODE_BY_STATUS[status] ?? (status < 500 ? "BAD_REQUEST" : "INTERNAL_SERVER_ERROR");
}

/** Turns what a procedure threw into a typed tRPC error when we recognise it; otherwise null. */
export function toTRPCError(error: TRPCError): TRPCError | null {
  // Errors we raise as TRPCError ourselves carry no cause and are already right.
  if (error.cause === undefined) return null;
  const appError = toAppError(error.cause);
  if (!appError) return null;
  return new TRPCError({ code: trpcCodeForStatus(appError.status), message: appError.message, cause: appError });
}

export interface AppErrorData {
  /** Our stable snake_case code, the same one the REST API returns. */
  code: string;
  errors?: FieldError[];
}

export type ErrorShape = TRPCDefaultErrorShape & { data: TRPCDefaultErrorShape["data"] & { app: AppErrorData } };

const INTERNAL_MESSAGE = "Internal server error; the server log has the details";

export function formatError({ shape, error }: { shape: TRPCDefaultErrorShape; error: TRPCError }): ErrorShape {
  // Stacks never leave the server, in development either: the log has them.
  const { stack: _stack, ...data } = shape.data;
  const appError = error.cause instanceof AppError ? error.cause : null;
  if (appError) {
    return {
      ...shape,
      message: appError.message,
      data: { ...data, httpStatus: appError.status, app: { code: appError.code, errors: appError.errors } },
    };
  }
  if (error.code === "INTERNAL_SERVER_ERROR") {
    logger.error({ err: error.cause ?? error, path: shape.data.path }, "unhandled tRPC error");
    return { ...shape, message: INTERNAL_MESSAGE, data: { ...data, app: { code: "internal_error" } } };
  }
  // tRPC's own errors (unknown procedure, malformed batch) and ones we raised deliberately.
  return { ...shape, data: { ...data, app: { code: error.code.toLowerCase() } } };
}

import { AppError, type FieldError } from "./app-error";
import type { ErrorCodeOf } from "./error-codes";

/** Input the contract rejects (the interface contract "400" and "rejected" rows). */
export class BadRequestError extends AppError {
  constructor(detail: string, code: ErrorCodeOf<400> = "bad_request", errors?: FieldError[]) {
    super(400, code, detail, errors);
  }
}

export class UnauthorizedError extends AppError {
  constructor(detail: string, code: ErrorCodeOf<401>) {
    super(401, code, detail);
  }
}

export class ForbiddenError extends AppError {
  constructor(detail: string, code: ErrorCodeOf<403>) {
    super(403, code, detail);
  }
}

export class NotFoundError extends AppError {
  constructor(detail: string, code: ErrorCodeOf<404> = "not_found") {
    super(404, code, detail);
  }
}

export class MethodNotAllowedError extends AppError {
  readonly allow: string[];
  constructor(method: string, path: string, allow: string[]) {
    super(405, "method_not_allowed", `${method} is not allowed on ${path}; use ${allow.join(", ")}`);
    this.allow = allow;
  }
}

export class ConflictError extends AppError {
  constructor(detail: string, code: ErrorCodeOf<409>, errors?: FieldError[]) {
    super(409, code, detail, errors);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, "payload_too_large", `Request body exceeds the limit of ${limitBytes} bytes`);
  }
}

/** The body parsed as JSON but does not match the request schema. */
export class SchemaValidationError extends AppError {
  constructor(errors: FieldError[], detail = describeFieldErrors(errors)) {
    super(422, "validation_error", detail, errors);
  }
}

export function describeFieldErrors(errors: FieldError[]): string {
  const shown = errors
    .slice(0, 3)
    .map((e) => (e.path ? `${e.path}: ${e.message}` : e.message))
    .join("; ");
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : "";
  return `Request body is invalid: ${shown}${more}`;
}

/** A limit is reached for now; the client should try again after `retryAfterSeconds` (sent as `Retry-After`). */
export class TooManyRequestsError extends AppError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
    code: ErrorCodeOf<429>,
  ) {
    super(429, code, detail);
  }
}

/** The request is understood but its content type or encoding is not one the route reads. */
export class UnsupportedMediaTypeError extends AppError {
  constructor(detail: string, code: ErrorCodeOf<415> = "unsupported_media_type") {
    super(415, code, detail);
  }
}

/** Something the service depends on (its own database) failed; the request may succeed when retried. */
export class ServiceUnavailableError extends AppError {
  constructor(detail: string, code: ErrorCodeOf<503>) {
    super(503, code, detail);
  }
}

import type { ErrorCode } from "./error-codes";

/** A problem with a request, turned into an HTTP response in exactly one place (server/http). */
export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  /** Fields the body carries besides `detail` and `code` (what a refusal names: a budget, its spend). */
  fields?: Record<string, unknown>;
  /** Headers the response carries (`Retry-After`, the rate-limit headers). */
  headers?: Record<string, string>;
  /**
   * The body's `detail` is `{message, ...fields}` instead of the text: set on the conditions the
   * reference implementation answers that way (its clients read `detail.message` there, and
   * `detail` as text everywhere else). server/http/README.md has the rule.
   */
  structuredDetail = false;

  constructor(status: number, code: ErrorCode, detail: string, errors?: FieldError[]) {
    super(detail);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.errors = errors;
  }

  /** This error with `detail` as the reference implementation's object (`{message, ...fields}`), given `fields`. */
  structured(fields?: Record<string, unknown>): this {
    this.structuredDetail = true;
    if (fields) this.fields = { ...this.fields, ...fields };
    return this;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

import { AppError } from "@/server/core/errors";

/** The `Accept` header names no transport this endpoint serves. */
export class NotAcceptableError extends AppError {
  constructor(detail: string) {
    super(406, "not_acceptable", detail);
  }
}

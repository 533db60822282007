export { AppError, isAppError, type FieldError } from "./app-error";
export {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  SchemaValidationError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnsupportedMediaTypeError,
  UnauthorizedError,
  describeFieldErrors,
} from "./http-errors";
export { errorCodes, statusesOf, type ErrorCode, type ErrorCodeOf } from "./error-codes";
export {
  errorExtras,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER,
  RUN_HEADERS,
  type ErrorExtras,
  type HeaderDoc,
} from "./error-extras";

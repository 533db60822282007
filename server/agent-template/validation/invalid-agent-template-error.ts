import { BadRequestError } from "@/server/core/errors";
import { describeTemplateErrors, type TemplateError } from "./template-error";

/** HTTP 400 carrying every template problem in `errors` (the interface contract lists these as 400 or "rejected"). */
export class InvalidAgentTemplateError extends BadRequestError {
  constructor(errors: TemplateError[]) {
    super(describeTemplateErrors(errors), "invalid_agent_template", errors);
  }
}

export function isInvalidAgentTemplateError(value: unknown): value is InvalidAgentTemplateError {
  return value instanceof InvalidAgentTemplateError;
}

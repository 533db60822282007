/**
 * Why an evaluator could not give a result, said so a person can fix it. Handlers throw it;
 * `runEvaluator` turns it into a failure outcome (it never escapes the module).
 */
export class EvaluatorFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = "EvaluatorFailure";
  }
}

export const invalidParameter = (message: string) => new EvaluatorFailure("invalid_parameters", message);
export const missingInput = (message: string) => new EvaluatorFailure("missing_input", message);
export const invalidOutputs = (message: string) => new EvaluatorFailure("invalid_outputs", message);

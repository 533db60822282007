import { AppError } from "@/server/core/errors";
import { resolveModelName, type ResolvedConnection } from "@/server/agent-runs";
import { EvaluatorFailure } from "./evaluator-failure";
import type { EvaluatorContext } from "./evaluator-types";

/**
 * The project's credential for a model an evaluator names (`resolveModelName`: the runner's own
 * resolution, so a judge reaches exactly what an agent of the project would); a model it cannot
 * reach fails the evaluator, naming the parameter.
 */
export async function resolveModel(
  ctx: EvaluatorContext,
  model: string,
  connectionSlug: string | undefined,
  parameter: string,
): Promise<ResolvedConnection> {
  try {
    return await resolveModelName(ctx.app, ctx.projectId, model, connectionSlug);
  } catch (error) {
    if (error instanceof AppError)
      throw new EvaluatorFailure("missing_connection", `parameter ${parameter} "${model}": ${error.message}`);
    throw error;
  }
}

import { PROVIDER_IDS, type AgentTemplate } from "@/server/agent-template";
import { AppError } from "@/server/core/errors";
import { resolveConnection, type ResolvedConnection } from "@/server/agent-runs";
import { vaultOf } from "@/server/vault";
import { EvaluatorFailure } from "./evaluator-failure";
import type { EvaluatorContext } from "./evaluator-types";

/**
 * The project's credential for a model an evaluator names: `provider/model` (as the catalog
 * writes it) or a bare model id the provider catalog or a stored custom provider knows; with
 * `connection`, the stored connection of that slug. Resolution is the runner's own, so a judge
 * reaches exactly what an agent of the project would.
 */
export async function resolveModel(
  ctx: EvaluatorContext,
  model: string,
  connectionSlug: string | undefined,
  parameter: string,
): Promise<ResolvedConnection> {
  const slash = model.indexOf("/");
  const prefix = slash > 0 ? model.slice(0, slash) : undefined;
  const split = prefix && (PROVIDER_IDS as string[]).includes(prefix);
  const llm = {
    provider: split ? prefix : null,
    model: split ? model.slice(slash + 1) : model,
    connection: connectionSlug ? { mode: "managed", slug: connectionSlug } : null,
    extras: {},
  } as unknown as AgentTemplate["llm"];
  try {
    return await resolveConnection(llm, {
      config: ctx.app.config,
      vault: vaultOf(ctx.app),
      db: ctx.app.db,
      projectId: ctx.projectId,
    });
  } catch (error) {
    if (error instanceof AppError)
      throw new EvaluatorFailure("missing_connection", `parameter ${parameter} "${model}": ${error.message}`);
    throw error;
  }
}

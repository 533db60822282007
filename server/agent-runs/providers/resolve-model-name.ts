import { PROVIDER_IDS, type AgentTemplate } from "@/server/agent-template";
import type { AppContext } from "@/server/core/app-context";
import { vaultOf } from "@/server/vault";
import type { ResolvedConnection } from "./connection";
import { resolveConnection } from "./resolve-connection";

/**
 * The credential for a model named in one string, as judges, prompts, triage and the optimizer
 * name theirs: `provider/model` (as the catalog writes it) splits only when the prefix is a known
 * provider, so a bare id with a slash of its own (`meta-llama/Llama-3.1-8B` on a custom provider)
 * stays whole; `connectionSlug` names a stored connection. Resolved exactly as an agent's `llm`.
 */
export function resolveModelName(
  app: Pick<AppContext, "db" | "secrets" | "config">,
  projectId: string,
  model: string,
  connectionSlug?: string,
): Promise<ResolvedConnection> {
  const slash = model.indexOf("/");
  const prefix = slash > 0 ? model.slice(0, slash) : "";
  const split = (PROVIDER_IDS as string[]).includes(prefix);
  const llm = {
    provider: split ? prefix : null,
    model: split ? model.slice(slash + 1) : model,
    connection: connectionSlug ? { mode: "managed", slug: connectionSlug } : null,
    extras: {},
  } as unknown as AgentTemplate["llm"];
  return resolveConnection(llm, { config: app.config, vault: vaultOf(app), db: app.db, projectId });
}

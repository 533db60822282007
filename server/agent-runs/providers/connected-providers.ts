import { PROVIDER_IDS } from "@/server/agent-template";
import type { AppContext } from "@/server/core/app-context";
import { isModelConnection, vaultOf } from "@/server/vault";

export interface ProviderConnection {
  provider: string;
  /** `stored`: a connection in the project's vault; `operator`: the server's environment key. */
  source: "stored" | "operator";
  /** The stored connection's name. */
  name?: string;
}

/**
 * Which providers a run could reach right now, in resolution's order: a stored connection wins
 * over the operator's key. Custom providers are listed by their models, not here; plain secrets never.
 */
export async function connectedProviders(
  app: Pick<AppContext, "db" | "secrets" | "config">,
  projectId: string,
): Promise<ProviderConnection[]> {
  const stored = (await vaultOf(app).list(projectId)).filter(isModelConnection);
  const out: ProviderConnection[] = [];
  for (const provider of PROVIDER_IDS) {
    const secret = stored.find((s) => s.provider === provider);
    if (secret) out.push({ provider, source: "stored", name: secret.name });
    else if (app.config.providerEnv[provider]?.key) out.push({ provider, source: "operator" });
  }
  return out;
}

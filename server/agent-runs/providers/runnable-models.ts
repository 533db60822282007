import {
  CURATED_MODELS,
  DEFAULT_MODEL,
  DEFAULT_PROVIDER,
  type ProviderId,
  type StartingModel,
} from "@/server/agent-template";
import type { AppContext } from "@/server/core/app-context";
import { isCustomProvider, isModelConnection, vaultOf } from "@/server/vault";
import { connectedProviders, type ProviderConnection } from "./connected-providers";

/** A stored custom provider and the model ids it lists (a template names them by its slug). */
export interface CustomProviderModels {
  slug: string;
  name: string;
  models: string[];
}

/** What the project can run: catalog providers with a credential, and custom providers' models. */
export interface RunnableModels {
  providers: ProviderConnection[];
  custom: CustomProviderModels[];
}

export async function runnableModels(
  app: Pick<AppContext, "db" | "secrets" | "config">,
  projectId: string,
): Promise<RunnableModels> {
  const [providers, secrets] = await Promise.all([connectedProviders(app, projectId), vaultOf(app).list(projectId)]);
  const custom = secrets
    .filter(isModelConnection)
    .flatMap((secret) =>
      isCustomProvider(secret.data)
        ? [{ slug: secret.slug, name: secret.name, models: secret.data.models.map((m) => m.slug) }]
        : [],
    );
  return { providers, custom };
}

/**
 * The model a new agent starts on: the built-in default when its provider has a credential, else
 * the cheapest curated model of another connected provider, else a custom provider's first model
 * (a person with only a local model gets a first chat that works), else the built-in default.
 */
export function startingModel({ providers, custom }: RunnableModels): StartingModel {
  if (providers.some((p) => p.provider === DEFAULT_PROVIDER))
    return { provider: DEFAULT_PROVIDER, model: DEFAULT_MODEL };
  for (const { provider } of providers) {
    const models = CURATED_MODELS[provider as ProviderId] ?? [];
    const cheapest = [...models].sort(
      (a, b) => (a.input_usd_per_mtok ?? Infinity) - (b.input_usd_per_mtok ?? Infinity),
    )[0];
    if (cheapest) return { provider, model: cheapest.id };
  }
  const local = custom.find((c) => c.models.length > 0);
  if (local) return { connection: { slug: local.slug }, model: local.models[0] };
  return { provider: DEFAULT_PROVIDER, model: DEFAULT_MODEL };
}

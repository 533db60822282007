import { CURATED_MODELS, PROVIDER_IDS, type AgentTemplate, type ProviderId } from "@/server/agents";
import type { Config } from "@/server/core/config";
import { BadRequestError } from "@/server/core/errors";
import type { ResolvedConnection } from "./connection";
import { PROVIDER_KEY_ENV } from "./provider-env-names";

const isProvider = (value: string): value is ProviderId => (PROVIDER_IDS as string[]).includes(value);

/**
 * Picks the credential for a run: a named stored connection, else the operator's environment key
 * for the provider (given, or inferred from the catalog), else a 400 naming the model and the fix.
 * `self_managed` injects nothing: the provider package signs itself in.
 */
export function resolveConnection(llm: AgentTemplate["llm"], config: Pick<Config, "providerEnv">): ResolvedConnection {
  const provider = llm.provider ?? inferProvider(llm.model);
  if (!isProvider(provider)) {
    throw new BadRequestError(`llm.provider "${provider}" is not a provider this harness reaches; use one of ${PROVIDER_IDS.join(", ")}`, "unknown_provider");
  }
  const env = config.providerEnv[provider] ?? {};
  if (llm.connection?.mode === "self_managed") {
    return { provider, model: llm.model, baseUrl: env.baseUrl, label: `the self-managed ${provider} connection` };
  }
  if (llm.connection?.slug) {
    throw new BadRequestError(
      `llm.connection.slug "${llm.connection.slug}" names no stored connection in this project; remove the slug to use the deployment's ${PROVIDER_KEY_ENV[provider]}`,
      "unknown_connection",
    );
  }
  if (env.key) return { provider, model: llm.model, apiKey: env.key, baseUrl: env.baseUrl, label: `the ${provider} key from ${PROVIDER_KEY_ENV[provider]}` };
  throw new BadRequestError(
    `No credential for model "${llm.model}" on provider ${provider}: the operator sets ${PROVIDER_KEY_ENV[provider]}, or set llm.connection to mode "self_managed"`,
    "missing_connection",
  );
}

function inferProvider(model: string): string {
  const listed = PROVIDER_IDS.filter((id) => CURATED_MODELS[id].some((entry) => entry.id === model));
  if (listed.length === 1) return listed[0];
  throw new BadRequestError(
    listed.length > 1
      ? `llm.model "${model}" is offered by ${listed.join(" and ")}; set llm.provider to choose`
      : `llm.provider is unset and no provider lists model "${model}"; set llm.provider or write the model as "provider/model"`,
    "unresolved_provider",
  );
}

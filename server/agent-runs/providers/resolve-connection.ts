import { CURATED_MODELS, PROVIDER_IDS, type AgentTemplate, type ProviderId } from "@/server/agent-template";
import type { Config } from "@/server/core/config";
import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { redactorFor } from "@/server/redaction";
import { isCustomProvider, isModelConnection, type ModelConnection, type Vault } from "@/server/vault";
import type { ResolvedConnection } from "./connection";
import { guardedFetchFor } from "./guarded-fetch-for";
import { PROVIDER_KEY_ENV } from "./provider-env-names";
import { rememberSecret } from "@/server/core/secret-masking";

const isProvider = (value: string): value is ProviderId => (PROVIDER_IDS as string[]).includes(value);

export interface ResolutionContext {
  config: Pick<Config, "providerEnv" | "egressAllowlist">;
  vault: Vault;
  db: Executor;
  projectId: string;
}

/**
 * Picks the credential for a run, in order: the stored connection `llm.connection.slug` names;
 * the project's connection for `llm.provider`; with no provider, a custom provider listing the
 * model, or the provider the catalog lists it under; then the operator's environment key; else a
 * 400 naming the model and the fix. `self_managed` injects nothing.
 */
export async function resolveConnection(
  llm: AgentTemplate["llm"],
  ctx: ResolutionContext,
): Promise<ResolvedConnection> {
  const connection = await pickConnection(llm, ctx);
  // The project's `model_input` redaction travels with the connection to every model built from it.
  const { redactor, modelInput } = await redactorFor(ctx.db, ctx.projectId);
  return modelInput && redactor.active ? { ...connection, inputRedactor: redactor } : connection;
}

async function pickConnection(llm: AgentTemplate["llm"], ctx: ResolutionContext): Promise<ResolvedConnection> {
  const { model } = llm;
  // One read of the project's (few) secrets serves every step below; a plain `secret` is never a model key.
  const all = llm.connection?.mode === "self_managed" ? [] : await ctx.vault.list(ctx.projectId);
  const stored = all.filter(isModelConnection);
  if (llm.connection?.slug) {
    const secret = stored.find((s) => s.slug === llm.connection!.slug);
    if (!secret) {
      const plain = all.some((s) => s.slug === llm.connection!.slug);
      throw new BadRequestError(
        plain
          ? `llm.connection.slug "${llm.connection.slug}" names a plain secret, not a model connection; store the key as kind provider_key or custom_provider`
          : `llm.connection.slug "${llm.connection.slug}" names no stored connection in this project; see GET /api/vault/v1/secrets/`,
        "unknown_connection",
      );
    }
    if (llm.provider && secret.provider !== "custom" && secret.provider !== llm.provider) {
      throw new BadRequestError(
        `llm.connection.slug "${secret.slug}" is a ${secret.provider} connection, but llm.provider is ${llm.provider}`,
        "connection_mismatch",
      );
    }
    return fromSecret(secret, model, ctx);
  }
  let provider = llm.provider;
  if (!provider) {
    const custom = stored.find(
      (secret) => isCustomProvider(secret.data) && secret.data.models.some((m) => m.slug === model),
    );
    if (custom) return fromSecret(custom, model, ctx);
    provider = inferProvider(model);
  }
  if (!isProvider(provider)) {
    throw new BadRequestError(
      `llm.provider "${provider}" is not a provider this harness reaches; use one of ${PROVIDER_IDS.join(", ")}`,
      "unknown_provider",
    );
  }
  const env = ctx.config.providerEnv[provider] ?? {};
  if (llm.connection?.mode === "self_managed") {
    return {
      provider,
      model,
      deployment: "direct",
      baseUrl: env.baseUrl,
      label: `the self-managed ${provider} connection`,
    };
  }
  const connection = stored.find((secret) => secret.provider === provider);
  if (connection) return fromSecret(connection, model, ctx);
  rememberSecret(env.key);
  if (env.key)
    return {
      provider,
      model,
      deployment: "direct",
      apiKey: env.key,
      baseUrl: env.baseUrl,
      label: `the ${provider} key from ${PROVIDER_KEY_ENV[provider]}`,
    };
  throw new BadRequestError(
    `No ${provider} key for model "${model}": add one under Settings → Connections (or POST /api/vault/v1/secrets/ with kind provider_key, data.kind ${provider}), or the operator sets ${PROVIDER_KEY_ENV[provider]}`,
    "missing_connection",
  );
}

function fromSecret(secret: ModelConnection, model: string, ctx: ResolutionContext): ResolvedConnection {
  const label = `the ${secret.provider} connection \`${secret.slug}\``;
  const { data } = secret;
  if (isCustomProvider(data)) {
    const modelExtras = data.models.find((m) => m.slug === model)?.extras ?? {};
    return {
      provider: "custom",
      customName: secret.slug,
      model,
      deployment: "custom",
      apiKey: data.provider.key ?? undefined,
      baseUrl: data.provider.url,
      fetch: guardedFetchFor(ctx.config.egressAllowlist),
      extras: { ...(data.provider.extras ?? {}), ...modelExtras },
      label,
    };
  }
  const url = data.provider.url ?? undefined;
  // Deployment `custom`: the provider's own API at a user-supplied URL, so through the guard.
  return {
    provider: secret.provider,
    model,
    deployment: url ? "custom" : "direct",
    apiKey: data.provider.key ?? undefined,
    baseUrl: url,
    fetch: url ? guardedFetchFor(ctx.config.egressAllowlist) : undefined,
    label,
  };
}

function inferProvider(model: string): string {
  const listed = PROVIDER_IDS.filter((id) => CURATED_MODELS[id].some((entry) => entry.id === model));
  if (listed.length === 1) return listed[0];
  throw new BadRequestError(
    listed.length > 1
      ? `llm.model "${model}" is offered by ${listed.join(" and ")}; set llm.provider to choose`
      : `llm.provider is unset and no provider or stored custom provider lists model "${model}"; set llm.provider or write the model as "provider/model"`,
    "unresolved_provider",
  );
}

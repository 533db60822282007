import type { inferRouterInputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

export type SecretInput = inferRouterInputs<AppRouter>["connections"]["create"];
/** The input of a model connection (plain secrets have their own form). */
export type ConnectionInput = SecretInput & { secret: Exclude<SecretInput["secret"], { kind: "secret" }> };

/** The dialog's fields, as typed. */
export interface ConnectionForm {
  kind: "provider_key" | "custom_provider";
  name: string;
  provider: string;
  key: string;
  url: string;
  /** Custom providers: model ids, separated by commas or new lines. */
  models: string;
}

export const emptyConnectionForm = (provider: string): ConnectionForm => ({
  kind: "provider_key",
  name: "",
  provider,
  key: "",
  url: "",
  models: "",
});

/**
 * The vault's input from the fields. An empty key on edit keeps the stored one (the vault's rule);
 * the server validates everything else and names the field that is wrong.
 */
export function secretInputOf(form: ConnectionForm): ConnectionInput {
  const key = form.key.trim() || null;
  const url = form.url.trim() || null;
  const header = { name: form.name.trim() };
  if (form.kind === "custom_provider") {
    const models = form.models
      .split(/[\n,]/)
      .map((slug) => slug.trim())
      .filter(Boolean)
      .map((slug) => ({ slug }));
    return {
      header,
      secret: { kind: "custom_provider", data: { kind: "custom", provider: { url: url ?? "", key }, models } },
    };
  }
  return { header, secret: { kind: "provider_key", data: { kind: form.provider, provider: { key, url } } } };
}

/** A stored connection back into the fields (the key is never sent back: it stays empty). */
export function formOf(connection: {
  header: { name: string };
  secret: { kind: string; data: { kind: string; provider: { url?: string }; models?: unknown[] } };
}): ConnectionForm {
  const { data } = connection.secret;
  const models = (data.models ?? []) as Array<{ slug: string }>;
  return {
    kind: connection.secret.kind === "custom_provider" ? "custom_provider" : "provider_key",
    name: connection.header.name,
    provider: data.kind,
    key: "",
    url: data.provider.url ?? "",
    models: models.map((m) => m.slug).join("\n"),
  };
}

import type { CustomProviderData, PlainSecretData, ProviderKeyData, SecretData } from "./secret-input";

interface StoredSecret {
  id: string;
  projectId: string;
  slug: string;
  name: string;
  description: string | null;
  /** Last four characters of the key or value, when it is long enough to show them. */
  keyTail: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A model connection: a provider's key (`provider` is its id) or a custom provider (`custom`). */
export type ModelConnection = StoredSecret &
  (
    | { kind: "provider_key"; provider: string; data: ProviderKeyData }
    | { kind: "custom_provider"; provider: string; data: CustomProviderData }
  );

/** A plain named secret: no provider, never a model key. */
export type PlainSecret = StoredSecret & { kind: "secret"; provider: null; data: PlainSecretData };

/** A stored secret with its data opened; only server code sees the key or value. */
export type VaultSecret = ModelConnection | PlainSecret;

export type { CustomProviderData };

export function isCustomProvider(data: SecretData): data is CustomProviderData {
  return "kind" in data && data.kind === "custom" && "models" in data;
}

export function isModelConnection(secret: VaultSecret): secret is ModelConnection {
  return secret.kind !== "secret";
}

/**
 * The value code tools' `secrets` and MCP `header_secret_refs` receive: a plain secret's value, or
 * (kept for templates written before plain secrets existed) a provider key.
 */
export function secretValueOf(secret: VaultSecret): string | undefined {
  return secret.kind === "secret" ? (secret.data.value ?? undefined) : (secret.data.provider.key ?? undefined);
}

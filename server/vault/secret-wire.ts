import { compact } from "@/server/core/compact";
import { isModelConnection, type ModelConnection, type PlainSecret, type VaultSecret } from "./vault-secret";

/** The wire record: everything but the key or value, which shows as its last four characters at most. */
export function secretToWire(secret: VaultSecret) {
  return isModelConnection(secret) ? connectionToWire(secret) : plainSecretToWire(secret);
}

export function connectionToWire(secret: ModelConnection) {
  const data =
    secret.kind === "custom_provider"
      ? { kind: secret.data.kind, provider: compact({ url: secret.data.provider.url, extras: secret.data.provider.extras ?? null, key_hint: hint(secret) }), models: secret.data.models }
      : { kind: secret.data.kind, provider: compact({ url: secret.data.provider.url ?? null, key_hint: hint(secret) }) };
  return envelope(secret, { kind: secret.kind, data });
}

export function plainSecretToWire(secret: PlainSecret) {
  return envelope(secret, { kind: secret.kind, data: compact({ value_hint: hint(secret) }) });
}

function envelope<S>(secret: VaultSecret, wire: S) {
  return compact({
    id: secret.id,
    slug: secret.slug,
    header: compact({ name: secret.name, description: secret.description }),
    secret: wire,
    created_at: secret.createdAt.toISOString(),
    updated_at: secret.updatedAt.toISOString(),
  });
}

const hint = (secret: VaultSecret) => (secret.keyTail ? `…${secret.keyTail}` : null);

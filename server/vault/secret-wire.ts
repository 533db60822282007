import { compact } from "@/server/core/compact";
import type { VaultSecret } from "./vault-secret";

/** The wire record: everything but the key, which shows as its last four characters at most. */
export function secretToWire(secret: VaultSecret) {
  const provider = secret.data.provider as { url?: string | null; extras?: Record<string, unknown> | null };
  const data =
    secret.data.kind === "custom"
      ? { kind: secret.data.kind, provider: compact({ url: provider.url ?? null, extras: provider.extras ?? null, key_hint: hint(secret) }), models: (secret.data as { models: unknown[] }).models }
      : { kind: secret.data.kind, provider: compact({ url: provider.url ?? null, key_hint: hint(secret) }) };
  return compact({
    id: secret.id,
    slug: secret.slug,
    header: compact({ name: secret.name, description: secret.description }),
    secret: { kind: secret.kind, data },
    created_at: secret.createdAt.toISOString(),
    updated_at: secret.updatedAt.toISOString(),
  });
}

const hint = (secret: VaultSecret) => (secret.keyTail ? `…${secret.keyTail}` : null);

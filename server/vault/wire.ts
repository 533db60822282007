import { z } from "zod";
import { compact } from "@/server/core/compact";
import { isoTimestampSchema } from "@/server/core/time";
import { isModelConnection, type ModelConnection, type PlainSecret, type VaultSecret } from "./vault-secret";

/** The wire record: everything but the key or value, which shows as its last four characters at most. */
export function secretToWire(secret: VaultSecret) {
  return isModelConnection(secret) ? connectionToWire(secret) : plainSecretToWire(secret);
}

export function connectionToWire(secret: ModelConnection) {
  const data =
    secret.kind === "custom_provider"
      ? {
          kind: secret.data.kind,
          provider: compact({
            url: secret.data.provider.url,
            extras: secret.data.provider.extras ?? null,
            key_hint: hint(secret),
          }),
          models: secret.data.models,
        }
      : {
          kind: secret.data.kind,
          provider: compact({ url: secret.data.provider.url ?? null, key_hint: hint(secret) }),
        };
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

const record = z.record(z.string(), z.unknown());
const keyHint = z
  .string()
  .optional()
  .describe("The key's or value's last four characters, when it is long enough to show them");

/** The schema of `secretToWire`'s records. */
export const secretWire = z.strictObject({
  id: z.string().uuid(),
  slug: z.string(),
  header: z.strictObject({ name: z.string(), description: z.string().optional() }),
  secret: z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("provider_key"),
      data: z.strictObject({
        kind: z.string(),
        provider: z.strictObject({ url: z.string().optional(), key_hint: keyHint }),
      }),
    }),
    z.strictObject({
      kind: z.literal("custom_provider"),
      data: z.strictObject({
        kind: z.literal("custom"),
        provider: z.strictObject({ url: z.string(), extras: record.optional(), key_hint: keyHint }),
        models: z.array(z.object({ slug: z.string(), extras: record.nullish() })),
      }),
    }),
    z.strictObject({ kind: z.literal("secret"), data: z.strictObject({ value_hint: keyHint }) }),
  ]),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema,
});

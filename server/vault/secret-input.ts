import { z } from "zod";
import { PROVIDER_IDS } from "@/server/agent-template";

const record = z.record(z.string(), z.unknown());
const key = z.string().min(1).max(8192);

const providerKey = z.object({
  kind: z.literal("provider_key"),
  data: z.object({
    kind: z.enum(PROVIDER_IDS as [string, ...string[]]).describe("The provider this key is for"),
    provider: z.object({
      key: key.nullish().describe("Required when creating; omit on update to keep the stored key"),
      url: z.string().max(2048).nullish().describe("Base URL for deployment `custom` (same provider, own endpoint)"),
    }),
  }),
});

const customProvider = z.object({
  kind: z.literal("custom_provider"),
  data: z.object({
    kind: z.literal("custom"),
    provider: z.object({
      url: z.string().min(1).max(2048).describe("Base URL of an OpenAI-compatible API, e.g. http://localhost:11434/v1"),
      key: key.nullish(),
      extras: record.nullish().describe("Provider options sent with every model"),
    }),
    models: z
      .array(z.object({ slug: z.string().trim().min(1).max(256), extras: record.nullish() }))
      .min(1)
      .max(500)
      .describe("Model ids this provider serves; resolution finds the provider by them"),
  }),
});

// A named value for code tools' `secrets` and MCP `header_secret_refs`; never a model key.
const plainSecret = z.object({
  kind: z.literal("secret"),
  data: z.object({
    value: z
      .string()
      .max(8192)
      .nullish()
      .describe("Required when creating (1 to 8192 characters); omit on update to keep the stored value"),
  }),
});

/** Body of POST and PUT `/api/vault/v1/secrets/` (the reference implementation's shape). */
export const secretInputSchema = z.object({
  header: z.object({ name: z.string().trim().min(1).max(256), description: z.string().max(10_000).nullish() }),
  secret: z.discriminatedUnion("kind", [providerKey, customProvider, plainSecret]),
});

export type SecretInput = z.output<typeof secretInputSchema>;
export type SecretData = SecretInput["secret"]["data"];
export type ProviderKeyData = Extract<SecretInput["secret"], { kind: "provider_key" }>["data"];
export type CustomProviderData = Extract<SecretInput["secret"], { kind: "custom_provider" }>["data"];
export type PlainSecretData = Extract<SecretInput["secret"], { kind: "secret" }>["data"];

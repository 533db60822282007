import { z } from "zod";
import { compact } from "@/server/core/compact";
import { toIso } from "@/server/core/time";
import { KEY_SCOPES } from "@/server/core/key-scopes";
import type { Account } from "./accounts";
import type { ApiKeyRecord } from "./api-keys";

export const apiKeyWire = z.object({
  id: z.string().uuid(),
  name: z.string().optional(),
  prefix: z.string().describe("First characters of the key, to tell keys apart"),
  user_id: z.string().uuid(),
  created_at: z.string(),
  last_used_at: z.string().optional(),
  revoked_at: z.string().optional(),
  scopes: z.array(z.enum(KEY_SCOPES)).describe("read, run (agents), ingest (traces) or full"),
  expires_at: z.string().optional().describe("After this time the key gets 401 expired_api_key"),
  key: z.string().optional().describe("The secret; present only in the response that created the key"),
});

export function apiKeyToWire(record: ApiKeyRecord, secret?: string) {
  return compact({
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    user_id: record.userId,
    created_at: toIso(record.createdAt),
    last_used_at: record.lastUsedAt ? toIso(record.lastUsedAt) : null,
    revoked_at: record.revokedAt ? toIso(record.revokedAt) : null,
    scopes: record.scopes,
    expires_at: record.expiresAt ? toIso(record.expiresAt) : null,
    key: secret,
  });
}

export const accountWire = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string().optional(), created_at: z.string() }),
  project: z.object({ id: z.string(), name: z.string(), created_at: z.string() }),
  api_key: apiKeyWire,
});

export function accountToWire(account: Account) {
  return {
    user: compact({
      id: account.user.id,
      email: account.user.email,
      name: account.user.name,
      created_at: toIso(account.user.createdAt),
    }),
    project: { id: account.project.id, name: account.project.name, created_at: toIso(account.project.createdAt) },
    api_key: apiKeyToWire(account.apiKey, account.secret),
  };
}

/** What POST /api/keys and the playground's create take. */
export const createApiKeyInput = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  scopes: z
    .array(z.enum(KEY_SCOPES))
    .min(1)
    .optional()
    .describe('Default ["full"]. read: GET and queries; run: invoke and /v1; ingest: trace ingest'),
  expires_at: z.iso.datetime({ offset: true }).optional().describe("ISO 8601; omitted: never expires"),
});

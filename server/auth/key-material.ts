import { hash, randomBytes } from "node:crypto";

const KEY_PREFIX = "sk_";
// Characters of the key kept in clear for listings: "sk_" plus 8 random characters.
const VISIBLE_LENGTH = KEY_PREFIX.length + 8;

export interface KeyMaterial {
  secret: string;
  prefix: string;
  hash: string;
}

/** 32 random bytes; a fast hash suffices because the secret has full entropy. */
export function generateKeyMaterial(): KeyMaterial {
  const secret = KEY_PREFIX + randomBytes(32).toString("base64url");
  return { secret, prefix: secret.slice(0, VISIBLE_LENGTH), hash: hashKey(secret) };
}

/** SHA-256, hex. The one-shot `hash` skips the Hash object `createHash` builds on every request. */
export function hashKey(secret: string): string {
  return hash("sha256", secret, "hex");
}

export function looksLikeKey(value: string): boolean {
  return value.startsWith(KEY_PREFIX) && value.length > VISIBLE_LENGTH;
}

import { processWide } from "../process-wide";
import { maskSecretValues } from "./secret-values";

/** What a redacted secret becomes. */
export const REDACTED = "[redacted]";

/** Shorter values are too likely to occur by chance (and too weak to be worth hiding). */
const MIN_SECRET_LENGTH = 8;
/** Secrets remembered per process; the least recently opened is forgotten first. */
const MAX_REMEMBERED = 1000;

const remembered = processWide("core.known-secrets", (_: typeof globalThis) => new Map<string, true>());
const known = () => remembered(globalThis);

/** `text` with every one of `secrets` (and each remembered secret) replaced by REDACTED. */
export function redactSecrets(text: string, secrets: Iterable<string> = []): string {
  const long = [...secrets, ...known().keys()].filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  return maskSecretValues(text, long, REDACTED);
}

/**
 * Remembers a secret this process opened (a vault credential, a webhook secret, a provider key
 * from the environment), so the logger removes it from every line it writes: a provider error that
 * echoes its key, a stack naming a URL with a token, never reach stdout.
 */
export function rememberSecret(secret: string | null | undefined): void {
  if (!secret || secret.length < MIN_SECRET_LENGTH) return;
  const map = known();
  map.delete(secret);
  map.set(secret, true);
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value as string);
}

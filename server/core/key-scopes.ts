import { ForbiddenError } from "@/server/core/errors";

/**
 * What an API key may do. `read`: every route a viewer may use (GET, and queries sent as POST);
 * `run`: the routes that run agents (invoke, its runs and streams, the OpenAI-compatible door);
 * `ingest`: the routes that take in traces; `full`: everything its user's role allows. A key may
 * hold several; the user's role still applies on top.
 */
export const KEY_SCOPES = ["read", "run", "ingest", "full"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** The scope a route asks for beyond `read` and `full`: declared by routes that run agents or ingest traces. */
export type RouteKeyScope = "run" | "ingest";

const LABEL: Record<KeyScope, string> = {
  read: "read-only",
  run: "run agents",
  ingest: "ingest traces",
  full: "full",
};

export function isKeyScope(value: string): value is KeyScope {
  return (KEY_SCOPES as readonly string[]).includes(value);
}

/**
 * The scope a route needs that `scopes` lacks, or null when the key may call it. `readsOnly`: the
 * route's least role is viewer.
 */
export function missingScope(
  scopes: readonly KeyScope[],
  route: { readsOnly: boolean; keyScope?: RouteKeyScope },
): KeyScope | null {
  if (scopes.includes("full")) return null;
  if (route.readsOnly && scopes.includes("read")) return null;
  if (route.keyScope && scopes.includes(route.keyScope)) return null;
  return route.keyScope ?? (route.readsOnly ? "read" : "full");
}

/** Throws 403 `missing_scope`, naming the scope the action needs and the ones the key has. */
export function requireScope(
  scopes: readonly KeyScope[],
  route: { readsOnly: boolean; keyScope?: RouteKeyScope },
  action: string,
): void {
  const missing = missingScope(scopes, route);
  if (!missing) return;
  const has = scopes.map((s) => LABEL[s]).join(", ");
  const needs = missing === "full" ? "the full scope" : `the ${LABEL[missing]} scope (or full)`;
  throw new ForbiddenError(`${action} needs an API key with ${needs}; this key has: ${has}`, "missing_scope");
}

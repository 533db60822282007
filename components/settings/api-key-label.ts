import type { ApiKey } from "./types";

/** How a key is named in the UI: its name, or its prefix when it has none. */
export function apiKeyLabel(key: Pick<ApiKey, "name" | "prefix">): string {
  return key.name ?? `${key.prefix}…`;
}

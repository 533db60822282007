/**
 * Every cell of a run's invocation step runs the same application: its agent's template (a
 * revision read, the template checked and its embeds resolved) and its connection (the project's
 * vault read and unsealed), or its prompt's connection, are resolved once per run and step, not
 * once per cell. An entry lives a few minutes, so a connection changed in the vault reaches a long
 * run soon; a failed resolution is not kept (the cell fails with it, the next one tries again).
 */
const cache = new Map<string, { at: number; value: Promise<unknown> }>();
const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 64;

/** `make()` for the first cell asking under `key` (run id and step key), its promise for the others. */
export function oncePerRun<T>(key: string, make: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.value as Promise<T>;
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  const value = make();
  cache.set(key, { at: now, value });
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key);
  });
  return value;
}

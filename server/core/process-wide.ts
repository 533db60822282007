/**
 * A value per key object (a database, say) shared by the whole process. Next.js may load a module
 * once per route bundle (REST, tRPC), so state both must see (a key revoked through one, events
 * drained through the other) lives on globalThis under a registered symbol, not in the module.
 */
export function processWide<K extends object, V>(name: string, create: (key: K) => V): (key: K) => V {
  const slot = Symbol.for(`agent-service.${name}`);
  const g = globalThis as typeof globalThis & { [slot: symbol]: WeakMap<K, V> | undefined };
  // The map is found on globalThis once (a lookup on a dictionary-mode object, on every hot request before).
  let values: WeakMap<K, V> | undefined;
  return (key) => {
    values ??= g[slot] ??= new WeakMap();
    let value = values.get(key);
    if (value === undefined) values.set(key, (value = create(key)));
    return value;
  };
}

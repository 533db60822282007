/**
 * Drops null and undefined fields of a wire record (null fields are omitted on the wire).
 * Shallow on purpose: user payloads such as revision `data` keep their nulls.
 */
export function compact<T extends Record<string, unknown>>(record: T): { [K in keyof T]: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const key in record) {
    const value = record[key];
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out as { [K in keyof T]: Exclude<T[K], null> };
}

/** Collects values for a hand-written statement and hands out their `$n` placeholders. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown, cast = ""): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

const NEEDS_ESCAPE = /[\\"]/;

/**
 * A PostgreSQL array literal, none null (cast it in SQL: `$1::text[]`, `::jsonb[]`, ...): numbers
 * and booleans as they are, anything else quoted (objects as JSON), escaped only where it needs
 * it. It runs over every roll-up row the ingest worker writes, hence the loop.
 */
export function pgArray(values: unknown[]): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ",";
    if (typeof v === "number" || typeof v === "boolean") {
      out += String(v);
      continue;
    }
    const text = typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);
    out += `"${NEEDS_ESCAPE.test(text) ? text.replace(/[\\"]/g, "\\$&") : text}"`;
  }
  return `${out}}`;
}

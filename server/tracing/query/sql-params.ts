/** Collects values for a hand-written statement and hands out their `$n` placeholders. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown, cast = ""): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/** A PostgreSQL array literal of text values (cast it in SQL: `$1::text[]`, `::jsonb[]`, ...). */
export function pgArray(values: unknown[]): string {
  return `{${values.map((v) => `"${String(v).replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

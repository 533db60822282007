import { rawQuery, type Executor } from "@/server/db";

/** One column of one table, all its rows' values as text. */
export interface DumpedColumn {
  table: string;
  column: string;
  text: string;
}

/**
 * Every text, JSON and array column of every table of the test database, each read whole as text:
 * what "found nowhere in the database" searches. Partitions are read through their parent.
 */
export async function dumpDatabase(db: Executor): Promise<DumpedColumn[]> {
  const columns = await rawQuery<{ table_name: string; column_name: string; data_type: string }>(
    db,
    `select c.table_name, c.column_name, c.data_type from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
       and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'bytea')
     order by c.table_name, c.column_name`,
  );
  const out: DumpedColumn[] = [];
  for (const { table_name: table, column_name: column, data_type: type } of columns) {
    // Bytes as text with only the unprintable ones escaped, so ASCII written into them is seen.
    const asText = type === "bytea" ? `encode(${quote(column)}, 'escape')` : `${quote(column)}::text`;
    const rows = await rawQuery<{ text: string | null }>(
      db,
      `select string_agg(${asText}, E'\\n') as text from ${quote(table)}`,
    );
    if (rows[0]?.text) out.push({ table, column, text: rows[0].text });
  }
  return out;
}

/** Where in the dump any of `values` occurs, as `table.column: value` lines (none: an empty list). */
export function findInDump(dump: DumpedColumn[], values: readonly string[]): string[] {
  const found: string[] = [];
  for (const { table, column, text } of dump)
    for (const value of values) if (text.includes(value)) found.push(`${table}.${column}: ${value}`);
  return found;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

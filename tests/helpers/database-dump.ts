import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { rawQuery, type Executor } from "@/server/db";
import * as schema from "@/server/db/schema";

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

/** Every table the service's Drizzle schema declares (what it writes), by name. */
export function schemaTables(): string[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => getTableConfig(table).name)
    .sort();
}

/**
 * The tables of the database's public schema as the migrations made them (partitions, read through
 * their parent, left out), each with its number of rows.
 */
export async function databaseTables(db: Executor): Promise<Map<string, number>> {
  const tables = await rawQuery<{ name: string }>(
    db,
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
  );
  const out = new Map<string, number>();
  for (const { name } of tables) {
    const [{ n }] = await rawQuery<{ n: number }>(db, `select count(*)::int as n from ${quote(name)}`);
    out.set(name, n);
  }
  return out;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

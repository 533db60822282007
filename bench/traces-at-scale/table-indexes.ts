import type postgres from "postgres";

/**
 * A table's primary key and other indexes as its migrations made them, read from the catalog so
 * that a bulk load can drop them, write its rows, and make the same ones again (as pg_restore
 * builds indexes after the data).
 */
export interface TableIndexes {
  table: string;
  primaryKey: { name: string; definition: string };
  /** As pg_indexes has them: `CREATE [UNIQUE] INDEX name ON [ONLY] public.table USING …`. */
  indexes: string[];
}

export async function readIndexes(sql: postgres.Sql, table: string): Promise<TableIndexes> {
  const [primaryKey] = await sql<{ name: string; definition: string }[]>`
    select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
     where conrelid = ${`public.${table}`}::regclass and contype = 'p'`;
  const indexes = await sql<{ definition: string }[]>`select indexdef as definition from pg_indexes
    where schemaname = 'public' and tablename = ${table} and indexname <> ${primaryKey.name} order by indexname`;
  return { table, primaryKey, indexes: indexes.map((i) => i.definition) };
}

const nameOf = (definition: string) => /INDEX (\S+) ON /.exec(definition)![1];

/** Drops them (on a partitioned table, from every partition too). */
export async function dropIndexes(sql: postgres.Sql, { table, primaryKey, indexes }: TableIndexes): Promise<void> {
  for (const index of indexes) await sql.unsafe(`drop index public.${nameOf(index)}`);
  await sql.unsafe(`alter table public.${table} drop constraint ${primaryKey.name}`);
}

/**
 * Makes them again from their definitions. On a partitioned table whose partitions each have the
 * same indexes (`onPartition`), PostgreSQL adopts the partitions' indexes instead of building them.
 */
export async function createIndexes(sql: postgres.Sql, { table, primaryKey, indexes }: TableIndexes): Promise<void> {
  await sql.unsafe(`alter table public.${table} add constraint ${primaryKey.name} ${primaryKey.definition}`);
  for (const index of indexes) await sql.unsafe(index.replace(" ON ONLY ", " ON "));
}

/**
 * The statements making the same indexes on one partition, unnamed, so that PostgreSQL names them
 * as it does when it builds the parent's index on each partition.
 */
export function onPartition({ primaryKey, indexes }: TableIndexes, partition: string): string[] {
  return [
    `alter table only public."${partition}" add ${primaryKey.definition}`,
    ...indexes.map((index) => {
      const create = index.slice(0, index.indexOf(" INDEX ") + " INDEX".length);
      return `${create} on public."${partition}" ${index.slice(index.indexOf(" USING ") + 1)}`;
    }),
  ];
}

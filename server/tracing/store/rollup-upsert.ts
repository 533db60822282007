import { rawQuery, type Executor } from "@/server/db";
import type { Amounts } from "../metrics";
import { pgArray } from "../query/sql-params";
import type { RollupDelta } from "./rollup-delta";
import {
  ROLLUP_COLUMNS,
  ROLLUP_COST_MAPS,
  ROLLUP_COUNT_MAPS,
  ROLLUP_KEY_COLUMNS,
  ROLLUP_MAP_COLUMNS,
  ROLLUP_SCALAR_COLUMNS,
  ROLLUP_SCALARS,
  type TableRow,
} from "./rollup-columns";
import { isEmpty, mergedCosts, mergedCounts } from "./rollup-sums";

/**
 * The roll-ups' writes (span_rollups, its columns in rollup-columns.ts): the projects' roll-up
 * lock, and the upsert of a RollupDelta, one array parameter per column.
 */

const KEY_COLUMNS = ROLLUP_KEY_COLUMNS;
const VALUE_COLUMNS = [...ROLLUP_SCALAR_COLUMNS, ...ROLLUP_MAP_COLUMNS];
const COUNT_MAPS = ROLLUP_COUNT_MAPS;
const COST_MAPS = ROLLUP_COST_MAPS;
const KEY = KEY_COLUMNS.map(([c]) => c).join(", ");
const ALL = ROLLUP_COLUMNS.map(([c]) => c).join(", ");
/** unnest of one array per column: PostgreSQL reads arrays far faster than one JSON document of rows. */
const unnest = (columns: readonly (readonly [string, string])[]) =>
  `unnest(${columns.map(([, type], i) => `$${i + 1}::text::${type}[]`).join(", ")})`;

/** Advisory lock class (two-key form, apart from the one-key locks) of a project's roll-up rows. */
const ROLLUP_LOCK = 7_241_003;
const LOCK = `select count(pg_advisory_xact_lock(${ROLLUP_LOCK}, h))
  from (select distinct hashtext(p) as h from unnest($1::text[]) as p order by h) l`;

/**
 * The maps of the rows that exist, by the (1-based) index of the row that names them; cost maps
 * as text, whose numbers keep every digit (JSON.parse would round them to doubles).
 */
const READ = `select r.i::int as i, s.${COUNT_MAPS.join(", s.")}, ${COST_MAPS.map((c) => `s.${c}::text as ${c}`).join(", ")}
  from ${unnest(KEY_COLUMNS)} with ordinality as r(${KEY}, i) join span_rollups s using (${KEY})`;

const sum = (c: string) => `${c} = span_rollups.${c} + excluded.${c}`;

const UPSERT = `insert into span_rollups (${ALL}) select * from ${unnest(ROLLUP_COLUMNS)}
  on conflict on constraint span_rollups_pkey do update set
    ${ROLLUP_SCALARS.map(sum).join(", ")},
    ${[...COUNT_MAPS, ...COST_MAPS].map((c) => `${c} = excluded.${c}`).join(", ")}`;

/** One array parameter per column of `columns`, of `rows`. */
const columnArrays = (rows: TableRow[], columns: readonly (readonly [keyof TableRow, string])[]) =>
  columns.map(([c]) => pgArray(rows.map((r) => r[c])));

/**
 * Takes the transaction-scoped lock of each project's roll-up rows, in one sorted order (no two
 * writers deadlock). Every writer of span_rollups holds it: the upsert below reads rows, merges
 * them here and writes them back, which is only right while no one else changes them.
 */
export async function lockRollups(tx: Executor, projectIds: string[]): Promise<void> {
  if (projectIds.length > 0) await rawQuery(tx, LOCK, [`{${[...new Set(projectIds)].join(",")}}`]);
}

/**
 * Adds the delta to span_rollups inside the caller's transaction: under the projects' lock, reads
 * the maps of the rows that exist and writes them merged, with the scalars added in the upsert.
 * Merging here, not with rollup_map_add on conflict, keeps the roll-up's cost to ingest small (a
 * call costs about 15 µs a map). Costs stay numeric sums, exact in the table, where doubles would
 * drift over many merges: they are added here in decimal (mergedCosts).
 */
export async function upsertRollups(tx: Executor, delta: RollupDelta): Promise<void> {
  const rows = delta.tableRows();
  if (rows.length === 0) return;
  await lockRollups(
    tx,
    rows.map((r) => r.project_id),
  );
  const keys = columnArrays(rows, KEY_COLUMNS);
  const stored = await rawQuery<
    { i: number } & Record<(typeof COUNT_MAPS)[number], Amounts> & Record<(typeof COST_MAPS)[number], string>
  >(tx, READ, keys);
  for (const s of stored) {
    const row = rows[s.i - 1];
    for (const name of COUNT_MAPS) row[name] = mergedCounts(s[name], row[name]);
    for (const name of COST_MAPS) {
      const delta = row[name] as Amounts;
      row[name] = isEmpty(delta) ? s[name] : mergedCosts(s[name], delta);
    }
  }
  await rawQuery(tx, UPSERT, [...keys, ...columnArrays(rows, VALUE_COLUMNS)]);
}

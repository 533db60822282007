import { processWide } from "@/server/core/process-wide";
import { rawQuery, type Database, type DatabaseKind, type Executor } from "@/server/db";
import { forgetBoundsBefore } from "./span-bounds";

/**
 * `spans` is partitioned by range of `start_time`, one partition per day or week (UTC; weeks
 * start on Monday). Partitions are created by the ingest worker, ahead of time for the coming
 * periods and on demand for any other period a batch needs, and dropped whole by retention.
 * DDL runs under one advisory lock, so workers never race to create the same partition.
 */
export type PartitionPeriod = "day" | "week";

export interface Partition {
  name: string;
  /** Bounds in ms since the epoch; `to` is exclusive. */
  from: number;
  to: number;
}

const DAY_MS = 86_400_000;
const DDL_LOCK = 7_241_002;
/** Periods created ahead of the current one. */
const AHEAD = 2;

export function periodStart(ms: number, period: PartitionPeriod): number {
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  if (period === "day") return day;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
  return day - weekday * DAY_MS;
}

export function periodEnd(start: number, period: PartitionPeriod): number {
  return start + (period === "day" ? DAY_MS : 7 * DAY_MS);
}

/** Partitions as the catalog has them. */
export async function listPartitions(db: Executor): Promise<Partition[]> {
  const rows = await rawQuery<{ name: string; bound: string }>(
    db,
    `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
       from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'public.spans'::regclass`,
  );
  return rows
    .map((r) => {
      const m = /FROM \('([^']+)'\) TO \('([^']+)'\)/.exec(r.bound);
      return m ? { name: r.name, from: Date.parse(m[1]), to: Date.parse(m[2]) } : undefined;
    })
    .filter((p): p is Partition => p !== undefined)
    .sort((a, b) => a.from - b.from);
}

/** Which partition ranges are known to exist, per database, in this process. */
const knownRanges = processWide("tracing.partitions", () => ({ ranges: [] as Partition[] }));

/** Makes the next ensurePartitions read the catalog again (after a failure that may come from a stale cache). */
export function forgetPartitions(db: Database): void {
  knownRanges(db).ranges = [];
}

function covered(ranges: Partition[], ms: number): boolean {
  return ranges.some((r) => r.from <= ms && ms < r.to);
}

/**
 * Makes sure a partition covers every given time (ms). Cheap when they all fall in partitions
 * this process has seen. `ddl` is where DDL runs: on PostgreSQL the database (its own short
 * transaction, off the caller's), on PGlite the caller's transaction (one connection).
 */
export async function ensurePartitions(
  db: Database,
  ddl: Executor,
  kind: DatabaseKind,
  times: number[],
  period: PartitionPeriod,
): Promise<void> {
  const known = knownRanges(db);
  const byPeriod = new Map<number, number>();
  for (const t of times) if (!covered(known.ranges, t)) byPeriod.set(periodStart(t, period), t);
  const missing = [...byPeriod.values()];
  if (missing.length === 0) return;
  const create = async (tx: Executor) => {
    await rawQuery(tx, `select pg_advisory_xact_lock(${DDL_LOCK})`);
    const existing = await listPartitions(tx);
    for (const t of missing.sort((a, b) => a - b)) {
      if (covered(existing, t)) continue;
      const start = periodStart(t, period);
      const range = clip(existing, t, start, periodEnd(start, period));
      const name = partitionName(existing, range.from);
      await rawQuery(
        tx,
        `create table if not exists public."${name}" partition of public.spans for values from ('${new Date(range.from).toISOString()}') to ('${new Date(range.to).toISOString()}')`,
      );
      existing.push({ name, ...range });
      existing.sort((a, b) => a.from - b.from);
    }
    known.ranges = existing;
  };
  if (kind === "pglite") await create(ddl);
  else await db.transaction(create);
}

/** Creates the current period's partition and the next few, so the common case never waits on DDL. */
export async function createPartitionsAhead(
  db: Database,
  kind: DatabaseKind,
  period: PartitionPeriod,
  now = Date.now(),
): Promise<void> {
  const times = [now];
  for (let i = 1; i <= AHEAD; i++) times.push(periodEnd(periodStart(times[i - 1], period), period));
  await ensurePartitions(db, db, kind, times, period);
}

/** Drops partitions that end before `now - retentionDays`; returns their names. */
export async function dropExpiredPartitions(db: Database, retentionDays: number, now = Date.now()): Promise<string[]> {
  const horizon = now - retentionDays * DAY_MS;
  const dropped: string[] = [];
  await db.transaction(async (tx) => {
    await rawQuery(tx, `select pg_advisory_xact_lock(${DDL_LOCK})`);
    let end = -Infinity;
    for (const p of await listPartitions(tx)) {
      if (p.to > horizon) continue;
      await rawQuery(tx, `drop table if exists public."${p.name}"`);
      dropped.push(p.name);
      end = Math.max(end, p.to);
    }
    // Every partition that ends by the horizon went: no span starts before the last one's end.
    if (dropped.length) await forgetBoundsBefore(tx, new Date(end).toISOString());
    knownRanges(db).ranges = (await listPartitions(tx)).filter((p) => !dropped.includes(p.name));
  });
  return dropped;
}

/**
 * The period's range around `t`, shortened where partitions of another size (the period setting
 * changed) already cover part of it. `t` itself is not covered, so the range is never empty.
 */
function clip(existing: Partition[], t: number, from: number, to: number): { from: number; to: number } {
  for (const p of existing) {
    if (p.to <= t) from = Math.max(from, p.to);
    else if (p.from > t) to = Math.min(to, p.from);
  }
  return { from, to };
}

function partitionName(existing: Partition[], from: number): string {
  const d = new Date(from).toISOString();
  const base = `spans_p${d.slice(0, 10).replaceAll("-", "")}${from % DAY_MS === 0 ? "" : `_${d.slice(11, 16).replace(":", "")}`}`;
  let name = base;
  for (let i = 2; existing.some((p) => p.name === name); i++) name = `${base}_${i}`;
  return name;
}

/**
 * Per-project retention (server/retention) where a drop can do it: drops each partition whose
 * every project is one with a horizon (`horizons`, ms: its spans
 * before it are past their age) at or after the partition's end, instead of deleting its spans
 * row by row. A partition holding a project that keeps its spans longer (or forever), or holding
 * nothing, stays. The partition is locked against writes while its projects are read (a skip
 * scan of its (project, time) index: one probe per project), so no span arrives between the
 * check and the drop. Returns the names dropped.
 */
export async function dropPartitionsPastRetention(db: Database, horizons: Map<string, number>): Promise<string[]> {
  const latest = Math.max(...horizons.values());
  const dropped: string[] = [];
  for (const p of await listPartitions(db)) {
    if (p.to > latest) break;
    await db.transaction(async (tx) => {
      await rawQuery(tx, `select pg_advisory_xact_lock(${DDL_LOCK})`);
      await rawQuery(tx, `lock table public."${p.name}" in share mode`);
      const projects = await rawQuery<{ project_id: string }>(
        tx,
        `with recursive p as (
           (select project_id from public."${p.name}" order by project_id limit 1)
           union all
           select (select s.project_id from public."${p.name}" s where s.project_id > p.project_id
                   order by s.project_id limit 1) from p where p.project_id is not null)
         select project_id::text as project_id from p where project_id is not null`,
      );
      const past = (projectId: string) => (horizons.get(projectId) ?? -Infinity) >= p.to;
      if (projects.length === 0 || !projects.every((r) => past(r.project_id))) return;
      await rawQuery(tx, `drop table public."${p.name}"`);
      // Its projects' older spans are past their horizons too (dropped, or deleted by rows).
      for (const { project_id } of projects) await forgetBoundsBefore(tx, new Date(p.to).toISOString(), project_id);
      dropped.push(p.name);
    });
  }
  if (dropped.length) knownRanges(db).ranges = knownRanges(db).ranges.filter((r) => !dropped.includes(r.name));
  return dropped;
}

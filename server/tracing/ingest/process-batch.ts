import { isDatabaseUnavailable, rawQuery, type Database, type DatabaseKind, type Executor } from "@/server/db";
import type { SpanRecord } from "../span-record";
import { ensurePartitions, forgetPartitions, type PartitionPeriod } from "../store/partitions";
import { tracesWithBounds } from "../store/span-bounds";
import { lockTraces } from "../store/trace-locks";
import { RollupDelta } from "../store/rollup-delta";
import { upsertRollups } from "../store/rollup-upsert";
import { WRITE_STATEMENTS, writeSpans } from "../store/write-spans";
import { addToBacklog, MAX_ATTEMPTS } from "./backlog";

export interface BatchOptions {
  /** Ingest rows claimed per transaction. */
  rows: number;
  period: PartitionPeriod;
  /** False only for the ingest benchmark's baseline: the service always keeps the analytics roll-ups. */
  rollups?: boolean;
}

export interface BatchResult {
  /** Ids of the ingest rows processed (and deleted). */
  rowIds: string[];
  spans: number;
  /** Rows whose processing failed (attempts counted; retried on a later pass). */
  failed: string[];
}

interface ClaimedRow {
  id: string;
  project_id: string;
  span_count: number;
  trace_ids: string;
  start_days: string;
  replace_traces: string | null;
  /** The roll-up of the row's spans, summed when they were queued (RollupDelta's JSON). */
  rollup: string | null;
}

const COLUMNS = `id::text as id, project_id::text as project_id, span_count, trace_ids::text as trace_ids,
  start_days::text as start_days, replace_traces::text as replace_traces, rollup`;
const CLAIM = `select ${COLUMNS} from span_ingest where attempts < ${MAX_ATTEMPTS} order by id limit $1::int for update skip locked`;
// A parameter, so postgres.js prepares it (rawQuery prepares statements with parameters only).
const ANY_QUEUED = `select 1 from span_ingest where attempts < $1::int limit 1`;
const CLAIM_ONE = `select ${COLUMNS} from span_ingest where id = $1::bigint and attempts < ${MAX_ATTEMPTS} for update skip locked`;
const PAYLOADS = `select id::text as id, payload from span_ingest where id = any($1::text::bigint[]) order by id`;
const DELETE_ROWS = `delete from span_ingest where id = any($1::text::bigint[])`;
const RECORD_FAILURE = `update span_ingest set attempts = attempts + 1, last_error = $2::text where id = $1::bigint`;
const TAKE_TO_SPLIT = `delete from span_ingest where id = $1::bigint and span_count > 1 returning project_id::text as project_id, payload, replace_traces::text as replace_traces`;
const INSERT_ONE = `insert into span_ingest (project_id, span_count, payload, trace_ids, start_days, replace_traces)
  values ($1::uuid, 1, $2::text, array[$3::uuid], array[$4::int], $5::text::uuid[])`;
const DAY_MS = 86_400_000;

/**
 * One worker pass: claims up to `rows` ingest rows (FOR UPDATE SKIP LOCKED: rows another worker
 * holds are skipped, never processed twice), writes their spans and deletes the rows in the same
 * transaction. If the batch fails, each row is retried alone so one bad row cannot hold back the
 * others; a row of several spans that fails alone is split into one row per span, so one bad span
 * cannot take the request's good ones down with it; a one-span row that fails has its attempt
 * counted, and after MAX_ATTEMPTS it is set aside (kept with its last error, for an operator)
 * instead of being retried forever.
 */
export async function processIngestBatch(
  db: Database,
  kind: DatabaseKind,
  options: BatchOptions,
): Promise<BatchResult> {
  const result = await processOnce(db, kind, options);
  if (result.spans > 0) addToBacklog(db, -result.spans);
  return result;
}

/** Whether a pass would find rows: the idle worker's one-statement look before a pass's transaction. */
export async function anyQueued(db: Database): Promise<boolean> {
  return (await rawQuery(db, ANY_QUEUED, [MAX_ATTEMPTS])).length > 0;
}

async function processOnce(db: Database, kind: DatabaseKind, options: BatchOptions): Promise<BatchResult> {
  try {
    return await db.transaction(async (tx) => {
      const rows = await rawQuery<ClaimedRow>(tx, CLAIM, [options.rows]);
      return { rowIds: rows.map((r) => r.id), spans: await writeRows(db, tx, kind, rows, options), failed: [] };
    });
  } catch (error) {
    // A database that cannot be used now fails the pass (the worker tries again); no row is at fault.
    if (isDatabaseUnavailable(error)) throw error;
    // A partition another process dropped (retention) may still be in this process's cache.
    forgetPartitions(db);
    return processRowsOneByOne(db, kind, options);
  }
}

async function processRowsOneByOne(db: Database, kind: DatabaseKind, options: BatchOptions): Promise<BatchResult> {
  const ids = (
    await rawQuery<{ id: string }>(
      db,
      `select id::text as id from span_ingest where attempts < ${MAX_ATTEMPTS} order by id limit $1::int`,
      [options.rows],
    )
  ).map((r) => r.id);
  const result: BatchResult = { rowIds: [], spans: 0, failed: [] };
  for (const id of ids) {
    try {
      const done = await db.transaction(async (tx) => {
        const rows = await rawQuery<ClaimedRow>(tx, CLAIM_ONE, [id]);
        return rows.length === 0 ? undefined : writeRows(db, tx, kind, rows, options);
      });
      if (done !== undefined) {
        result.rowIds.push(id);
        result.spans += done;
      }
    } catch (error) {
      // Not the row's fault: no attempt of its own is spent on a database that is down; the
      // rows left wait for the next pass.
      if (isDatabaseUnavailable(error)) break;
      result.failed.push(id);
      if (!(await splitRow(db, id)))
        await rawQuery(db, RECORD_FAILURE, [id, String((error as Error)?.message ?? error).slice(0, 2000)]);
    }
  }
  return result;
}

/**
 * Replaces a failed row of several spans by one row per span, in one transaction, the first
 * keeping the row's trace replacement; false when the row holds one span (or is gone).
 */
async function splitRow(db: Database, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await rawQuery<{ project_id: string; payload: string; replace_traces: string | null }>(
      tx,
      TAKE_TO_SPLIT,
      [id],
    );
    if (!row) return false;
    const spans = JSON.parse(row.payload) as SpanRecord[];
    for (const [i, span] of spans.entries()) {
      const day = Math.floor(Date.parse(span.start_time) / DAY_MS);
      await rawQuery(tx, INSERT_ONE, [
        row.project_id,
        JSON.stringify([span]),
        span.trace_id,
        day,
        i === 0 ? row.replace_traces : null,
      ]);
    }
    return true;
  });
}

/**
 * Writes the claimed rows' spans. The common case never brings the spans into this process: a
 * row whose traces have no stored spans and share no trace with another claimed row is inserted
 * by PostgreSQL straight from its queued payload (its totals and its analytics roll-up were
 * summed at ingest). Every other row goes through writeSpans (replacement across partitions,
 * trace totals over the stored trace), in queue order, consecutive rows of a project merged into one
 * write. The analytics roll-up of the whole batch is then upserted in one statement.
 */
async function writeRows(
  db: Database,
  tx: Executor,
  kind: DatabaseKind,
  rows: ClaimedRow[],
  options: BatchOptions,
): Promise<number> {
  if (rows.length === 0) return 0;
  const traces = rows.map((r) => ({ row: r, traceIds: arrayText(r.trace_ids) }));
  const days = [...new Set(rows.flatMap((r) => arrayText(r.start_days).map(Number)))];
  await ensurePartitions(
    db,
    tx,
    kind,
    days.map((d) => d * DAY_MS),
    options.period,
  );

  // Lock every (project, trace) of the batch, in one sorted order, before looking at stored spans.
  const keys = traces.flatMap(({ row, traceIds }) => traceIds.map((t) => ({ projectId: row.project_id, traceId: t })));
  await lockTraces(tx, keys);
  // Traces with a bounds row may have stored spans (one index probe each, where asking `spans`
  // probed every partition's index).
  const stored = await tracesWithBounds(tx, keys);
  const rowsPerTrace = new Map<string, number>();
  for (const k of keys)
    rowsPerTrace.set(`${k.projectId}/${k.traceId}`, (rowsPerTrace.get(`${k.projectId}/${k.traceId}`) ?? 0) + 1);
  const rollups = options.rollups === false ? undefined : new RollupDelta();
  // A row queued without its roll-up (before the column existed) takes the slow path, which sums it.
  const isFast = ({ row, traceIds }: (typeof traces)[number]) =>
    row.replace_traces === null &&
    (rollups === undefined || row.rollup !== null) &&
    traceIds.every((t) => !stored.has(`${row.project_id}/${t}`) && rowsPerTrace.get(`${row.project_id}/${t}`) === 1);

  const fast = traces.filter(isFast).map((t) => t.row);
  const slow = traces.filter((t) => !isFast(t)).map((t) => t.row);
  if (fast.length > 0) {
    await rawQuery(tx, WRITE_STATEMENTS.insertFromQueue, [`{${fast.map((r) => r.id).join(",")}}`]);
    if (rollups) for (const row of fast) rollups.mergeJson(row.project_id, row.rollup!);
  }
  if (slow.length > 0) await writeSlowRows(tx, slow, rollups);
  if (rollups) await upsertRollups(tx, rollups);
  await rawQuery(tx, DELETE_ROWS, [`{${rows.map((r) => r.id).join(",")}}`]);
  return rows.reduce((sum, r) => sum + r.span_count, 0);
}

async function writeSlowRows(tx: Executor, rows: ClaimedRow[], rollups: RollupDelta | undefined): Promise<void> {
  const payloads = new Map(
    (await rawQuery<{ id: string; payload: string }>(tx, PAYLOADS, [`{${rows.map((r) => r.id).join(",")}}`])).map(
      (p) => [p.id, p.payload],
    ),
  );
  let group = new Map<string, SpanRecord[]>();
  const flush = async () => {
    for (const [projectId, spans] of group) await writeSpans(tx, projectId, spans, new Set(), rollups);
    group = new Map();
  };
  for (const row of [...rows].sort((a, b) => Number(a.id) - Number(b.id))) {
    const spans = JSON.parse(payloads.get(row.id)!) as SpanRecord[];
    if (row.replace_traces === null) {
      const list = group.get(row.project_id);
      if (list) list.push(...spans);
      else group.set(row.project_id, [...spans]);
      continue;
    }
    await flush();
    await writeSpans(tx, row.project_id, spans, new Set(arrayText(row.replace_traces)), rollups);
  }
  await flush();
}

/** PostgreSQL's text form of a uuid[] or int[] (`{a,b}`), whose elements need no quoting. */
function arrayText(text: string): string[] {
  const inner = text.slice(1, -1);
  return inner === "" ? [] : inner.split(",");
}

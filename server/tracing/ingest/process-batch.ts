import { rawQuery, type Database, type DatabaseKind, type Executor } from "@/server/db";
import type { SpanRecord } from "../span-record";
import { ensurePartitions, type PartitionPeriod } from "../store/partitions";
import { writeSpans } from "../store/write-spans";
import { addToBacklog, MAX_ATTEMPTS } from "./backlog";

export interface BatchOptions {
  /** Ingest rows claimed per transaction. */
  rows: number;
  period: PartitionPeriod;
}

export interface BatchResult {
  /** Ids of the ingest rows processed (and deleted). */
  rowIds: string[];
  spans: number;
  /** Rows whose processing failed (attempts counted; retried on a later pass). */
  failed: string[];
}

interface IngestRow {
  id: string;
  project_id: string;
  payload: string;
}

const CLAIM = `select id::text as id, project_id::text as project_id, payload from span_ingest
  where attempts < ${MAX_ATTEMPTS} order by id limit $1::int for update skip locked`;
const CLAIM_ONE = `select id::text as id, project_id::text as project_id, payload from span_ingest
  where id = $1::bigint and attempts < ${MAX_ATTEMPTS} for update skip locked`;
const DELETE_ROWS = `delete from span_ingest where id = any($1::text::bigint[])`;
const RECORD_FAILURE = `update span_ingest set attempts = attempts + 1, last_error = $2::text where id = $1::bigint`;

/**
 * One worker pass: claims up to `rows` ingest rows (FOR UPDATE SKIP LOCKED: rows another worker
 * holds are skipped, never processed twice), writes their spans and deletes the rows in the same
 * transaction. If the batch fails, each row is retried alone so one bad row cannot hold back the
 * others; a row that fails alone has its attempt counted, and after MAX_ATTEMPTS it is set aside
 * (kept with its last error, for an operator) instead of being retried forever.
 */
export async function processIngestBatch(db: Database, kind: DatabaseKind, options: BatchOptions): Promise<BatchResult> {
  const result = await processOnce(db, kind, options);
  if (result.spans > 0) addToBacklog(db, -result.spans);
  return result;
}

async function processOnce(db: Database, kind: DatabaseKind, options: BatchOptions): Promise<BatchResult> {
  try {
    return await db.transaction(async (tx) => {
      const rows = await rawQuery<IngestRow>(tx, CLAIM, [options.rows]);
      return { rowIds: rows.map((r) => r.id), spans: await writeRows(db, tx, kind, rows, options), failed: [] };
    });
  } catch {
    return processRowsOneByOne(db, kind, options);
  }
}

async function processRowsOneByOne(db: Database, kind: DatabaseKind, options: BatchOptions): Promise<BatchResult> {
  const ids = (await rawQuery<{ id: string }>(db, `select id::text as id from span_ingest where attempts < ${MAX_ATTEMPTS} order by id limit $1::int`, [options.rows])).map((r) => r.id);
  const result: BatchResult = { rowIds: [], spans: 0, failed: [] };
  for (const id of ids) {
    try {
      const done = await db.transaction(async (tx) => {
        const rows = await rawQuery<IngestRow>(tx, CLAIM_ONE, [id]);
        return rows.length === 0 ? undefined : writeRows(db, tx, kind, rows, options);
      });
      if (done !== undefined) {
        result.rowIds.push(id);
        result.spans += done;
      }
    } catch (error) {
      result.failed.push(id);
      await rawQuery(db, RECORD_FAILURE, [id, String((error as Error)?.message ?? error).slice(0, 2000)]);
    }
  }
  return result;
}

/** A row's payload: a JSON array of spans, or `{replace_traces, spans}` for a trace replacement. */
type Payload = SpanRecord[] | { replace_traces: string[]; spans: SpanRecord[] };

/**
 * Rows are written in queue order. Consecutive rows are merged per project into one write (one
 * insert per project); a replacement row is written on its own, so it replaces exactly what was
 * queued before it.
 */
async function writeRows(db: Database, tx: Executor, kind: DatabaseKind, rows: IngestRow[], options: BatchOptions): Promise<number> {
  if (rows.length === 0) return 0;
  const parsed = rows.map((row) => ({ projectId: row.project_id, payload: JSON.parse(row.payload) as Payload }));
  const all = parsed.flatMap((p) => (Array.isArray(p.payload) ? p.payload : p.payload.spans));
  await ensurePartitions(db, tx, kind, all.map((s) => Date.parse(s.start_time)), options.period);
  let group = new Map<string, SpanRecord[]>();
  const flush = async () => {
    for (const [projectId, spans] of group) await writeSpans(tx, projectId, spans);
    group = new Map();
  };
  for (const { projectId, payload } of parsed) {
    if (Array.isArray(payload)) {
      const list = group.get(projectId);
      if (list) list.push(...payload);
      else group.set(projectId, [...payload]);
      continue;
    }
    await flush();
    await writeSpans(tx, projectId, payload.spans, new Set(payload.replace_traces));
  }
  await flush();
  await rawQuery(tx, DELETE_ROWS, [`{${rows.map((r) => r.id).join(",")}}`]);
  return all.length;
}

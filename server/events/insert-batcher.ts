import { EVENTS_CHANNEL } from "./notify";
import { logger } from "@/server/core/logger";
import { processWide } from "@/server/core/process-wide";
import { rawQuery, type Database } from "@/server/db";

/** A queued event: its attributes already JSON (server/events/emit.ts serialises them). */
export interface QueuedEvent {
  id: string;
  projectId: string;
  eventType: string;
  timestamp: Date;
  attributes: string;
}

/** How long the first queued row waits for company; a full batch goes at once. */
const FLUSH_DELAY_MS = 10;
const MAX_BATCH = 1000;

/**
 * One statement for any number of rows: they travel as a single JSON array, so the SQL never
 * changes with the batch size and is prepared once (building a multi-row insert per batch cost
 * more than the insert itself). A read event no active webhook subscription of its project takes
 * is written already fanned out (fan-out would only mark it), and the fan-out worker is woken in
 * the same statement only when a row is left for it: under a stream of retrieves, a fan-out
 * transaction per batch and the update of every event row cost as much as the retrieves' own work.
 */
const INSERT_ROWS_SQL = `
with written as (
  insert into events (id, project_id, event_type, "timestamp", created_at, attributes, fanned_out_at)
  select r.id, r.project_id, r.event_type, r."timestamp", r.created_at, r.attributes,
    case when exists (
      select 1 from webhook_subscriptions s
      where s.project_id = r.project_id and s.is_active
        and (s.event_types is null or jsonb_typeof(s.event_types) = 'null' or s.event_types @> to_jsonb(r.event_type))
    ) then null else r.created_at end
  from jsonb_to_recordset($1::text::jsonb)
    as r(id uuid, project_id uuid, event_type text, "timestamp" timestamptz, created_at timestamptz, attributes jsonb)
  returning fanned_out_at
)
select pg_notify('${EVENTS_CHANNEL}', '') from written where fanned_out_at is null limit 1`;

/**
 * The batch as the JSON array the insert reads, written as text: the attributes are JSON
 * already, and the other fields are ids, an event type and times.
 */
function batchJson(rows: QueuedEvent[]): string {
  let json = "[";
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const at = JSON.stringify(row.timestamp.toISOString());
    json +=
      (i ? "," : "") +
      `{"id":${JSON.stringify(row.id)},"project_id":${JSON.stringify(row.projectId)},` +
      `"event_type":${JSON.stringify(row.eventType)},"timestamp":${at},"created_at":${at},"attributes":${row.attributes}}`;
  }
  return json + "]";
}

/**
 * Groups event inserts made within a few milliseconds into one insert, and can be drained:
 * everything handed to it so far is written (or has failed and been logged) when `drain()`
 * resolves. Rows are fire-and-forget: no promise per row, since nobody waits for a single read
 * event.
 */
class InsertBatcher {
  private pending: QueuedEvent[] = [];
  private unwritten = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly db: Database) {}

  /** Rows accepted but not yet written, queued or in flight. */
  get backlog(): number {
    return this.unwritten;
  }

  enqueue(row: QueuedEvent): void {
    this.pending.push(row);
    this.unwritten++;
    if (this.pending.length >= MAX_BATCH) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
  }

  async drain(): Promise<void> {
    if (this.pending.length > 0) this.flush();
    await Promise.all([...this.inFlight]);
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    clearTimeout(this.timer);
    this.timer = undefined;
    if (batch.length === 0) return;
    const write = this.writeAll(batch).finally(() => {
      this.unwritten -= batch.length;
      this.inFlight.delete(write);
    });
    this.inFlight.add(write);
  }

  /**
   * Writes a batch, or, if that fails, each row alone, so one bad row (its project deleted
   * meanwhile, say) costs only itself. Never rejects (it runs from a timer): what is lost is logged.
   */
  private async writeAll(batch: QueuedEvent[]): Promise<void> {
    try {
      await this.write(batch);
    } catch (error) {
      const lost =
        batch.length === 1
          ? batch
          : (
              await Promise.all(
                batch.map((row) =>
                  this.write([row]).then(
                    () => null,
                    () => row,
                  ),
                ),
              )
            ).filter((row) => row !== null);
      if (lost.length > 0) {
        logger.error(
          { err: error, rows: lost.length, eventTypes: [...new Set(lost.map((row) => row.eventType))] },
          "read events not written",
        );
      }
    }
  }

  private async write(rows: QueuedEvent[]): Promise<void> {
    await rawQuery(this.db, INSERT_ROWS_SQL, [batchJson(rows)]);
  }
}

/** One batcher per database; the REST and tRPC route bundles must drain the same one. */
export const eventBatcherFor = processWide<Database, InsertBatcher>("event-batchers", (db) => new InsertBatcher(db));

import { sql } from "drizzle-orm";
import { notifyEventsWritten } from "./notify";
import { logger } from "@/server/core/logger";
import { processWide } from "@/server/core/process-wide";
import { preparedQuery, type Database } from "@/server/db";
import { events } from "@/server/db/schema";

type EventRow = typeof events.$inferInsert;

/** How long the first queued row waits for company; a full batch goes at once. */
const FLUSH_DELAY_MS = 10;
const MAX_BATCH = 1000;

/**
 * One statement for any number of rows: they travel as a single JSON array, so the SQL never
 * changes with the batch size and is prepared once (building a multi-row insert per batch cost
 * more than the insert itself).
 */
const insertRows = (db: Database) =>
  db.insert(events).select(
    // The insert names every column of the table in order; fanned_out_at (last) starts null.
    sql`select r.*, null::timestamptz from jsonb_to_recordset(${sql.placeholder("rows")}::jsonb) as r(id uuid, project_id uuid, event_type text, "timestamp" timestamptz, created_at timestamptz, attributes jsonb)`,
  );

function toRecord(row: EventRow) {
  return {
    id: row.id,
    project_id: row.projectId,
    event_type: row.eventType,
    timestamp: row.timestamp,
    created_at: row.createdAt,
    attributes: row.attributes,
  };
}

/**
 * Groups event inserts made within a few milliseconds into one insert, and can be drained:
 * everything handed to it so far is written (or has failed and been logged) when `drain()`
 * resolves. Rows are fire-and-forget: no promise per row, since nobody waits for a single read
 * event.
 */
class InsertBatcher {
  private pending: EventRow[] = [];
  private unwritten = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly db: Database) {}

  /** Rows accepted but not yet written, queued or in flight. */
  get backlog(): number {
    return this.unwritten;
  }

  enqueue(row: EventRow): void {
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
  private async writeAll(batch: EventRow[]): Promise<void> {
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

  private async write(rows: EventRow[]): Promise<void> {
    await preparedQuery(this.db, "insertEvents", insertRows).execute({ rows: JSON.stringify(rows.map(toRecord)) });
    await notifyEventsWritten(this.db);
  }
}

/** One batcher per database; the REST and tRPC route bundles must drain the same one. */
export const eventBatcherFor = processWide<Database, InsertBatcher>("event-batchers", (db) => new InsertBatcher(db));

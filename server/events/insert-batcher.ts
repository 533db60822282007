import { sql } from "drizzle-orm";
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
  db
    .insert(events)
    .select(
      sql`select * from jsonb_to_recordset(${sql.placeholder("rows")}::jsonb) as r(id uuid, project_id uuid, event_type text, "timestamp" timestamptz, created_at timestamptz, attributes jsonb)`,
    )
    ;

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

interface Pending {
  row: EventRow;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Groups event inserts made within a few milliseconds into one insert, and can be drained:
 * everything handed to it so far is written when `drain()` resolves.
 */
class InsertBatcher {
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly db: Database) {}

  /** Rows accepted but not yet written. */
  get backlog(): number {
    return this.pending.length + this.inFlight.size;
  }

  insert(row: EventRow): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      if (this.pending.length >= MAX_BATCH) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
    });
  }

  async drain(): Promise<void> {
    if (this.pending.length > 0) this.flush();
    await Promise.allSettled([...this.inFlight]);
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    clearTimeout(this.timer);
    this.timer = undefined;
    if (batch.length === 0) return;
    // Runs from a timer: anything thrown must reject the batch, not escape as an uncaught error.
    const write = Promise.resolve()
      .then(() => preparedQuery(this.db, "insertEvents", insertRows).execute({ rows: JSON.stringify(batch.map((p) => toRecord(p.row))) }))
      .then(
        () => batch.forEach((p) => p.resolve()),
        (error: unknown) => batch.forEach((p) => p.reject(error)),
      )
      .finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
  }
}

// On globalThis: the REST and tRPC route bundles must drain the same batcher.
const BATCHERS = Symbol.for("agent-service.event-batchers");
type GlobalWithBatchers = typeof globalThis & { [BATCHERS]?: WeakMap<object, InsertBatcher> };

export function eventBatcherFor(db: Database): InsertBatcher {
  const g = globalThis as GlobalWithBatchers;
  const batchers = (g[BATCHERS] ??= new WeakMap());
  let batcher = batchers.get(db);
  if (!batcher) batchers.set(db, (batcher = new InsertBatcher(db)));
  return batcher;
}

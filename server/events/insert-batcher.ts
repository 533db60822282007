import type { Database } from "@/server/db";
import { events } from "@/server/db/schema";

type EventRow = typeof events.$inferInsert;

interface Pending {
  row: EventRow;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Groups the event inserts of requests running at the same moment into one multi-row insert.
 * Each caller still waits until its row is written, so an event exists before the response that
 * caused it is sent; under load the database does one insert where it did many.
 */
class InsertBatcher {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(private readonly db: Database) {}

  insert(row: EventRow): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // Every request that reaches this point in the current turn of the event loop joins the batch.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    try {
      await this.db.insert(events).values(batch.map((p) => p.row));
      for (const p of batch) p.resolve();
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }
}

const batchers = new WeakMap<object, InsertBatcher>();

export function eventBatcherFor(db: Database): InsertBatcher {
  let batcher = batchers.get(db);
  if (!batcher) batchers.set(db, (batcher = new InsertBatcher(db)));
  return batcher;
}

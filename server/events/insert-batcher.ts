import type { Database } from "@/server/db";
import { events } from "@/server/db/schema";

type EventRow = typeof events.$inferInsert;

interface Pending {
  row: EventRow;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Groups event inserts made in the same turn of the event loop into one multi-row insert, and
 * can be drained: everything handed to it so far is written when `drain()` resolves.
 */
class InsertBatcher {
  private pending: Pending[] = [];
  private scheduled = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly db: Database) {}

  /** Rows accepted but not yet written. */
  get backlog(): number {
    return this.pending.length + this.inFlight.size;
  }

  insert(row: EventRow): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  async drain(): Promise<void> {
    if (this.pending.length > 0) this.flush();
    await Promise.allSettled([...this.inFlight]);
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    if (batch.length === 0) return;
    const write = this.db
      .insert(events)
      .values(batch.map((p) => p.row))
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

import { logger } from "@/server/core/logger";

/** A counter's total in the shared store, and when its window starts again at 0 (ms, the tally's clock). */
export interface TallyTotal {
  value: number;
  expiresAt?: number;
}

/** Where the totals every process adds to live (a table, or a rate limiter's store). */
export interface TallyStore<M> {
  /** Adds each amount (one write for the batch where the store allows it); each key's new total. */
  add(items: Array<{ key: string; amount: number; meta: M }>): Promise<Map<string, TallyTotal>>;
  /** Each key's current total; a key with no row is absent. */
  read(keys: string[]): Promise<Map<string, TallyTotal>>;
}

export interface TallyOptions {
  /**
   * The only process on its database (the embedded one): what it knows is the total, so a total
   * is read once and never again.
   */
  alone: boolean;
  /** A total older than this is read again in the background (served meanwhile). */
  freshMs: number;
  /** Adds are written at most this often, in one batch. */
  syncMs: number;
  /** The app's clock (ms): what ages a total and ends a window. Tests move it instead of waiting. */
  now: () => number;
  /** How two amounts add (money: as decimals, decimal-usd.ts); plain addition when absent. */
  plus?: (a: number, b: number) => number;
}

interface Entry<M> {
  /** The shared total as last read or returned by a write. */
  known: number;
  expiresAt?: number;
  readAt: number;
  /** How many totals were taken: a read that began before one is not taken. */
  takes: number;
  usedAt: number;
  /** Added here and not yet written; being written. */
  pending: number;
  writing: number;
  meta?: M;
}

/** An entry neither used nor holding counts for this long is dropped. */
const IDLE_MS = 120_000;

/**
 * Shared counters (budget spend, tokens per minute) counted in memory and written in batches:
 * `add` costs no query, `value` costs one only for a key never seen (or when the store's window
 * has run out); every `syncMs` one `sync` writes what was added and reads again the totals that
 * have aged past `freshMs` (while they are served). What this process reports is the last shared
 * total it saw plus its own counts, so another process's counts reach it within about
 * `freshMs + syncMs`, and its own reach the others once written.
 */
export class SharedTally<M> {
  private readonly entries = new Map<string, Entry<M>>();
  private readonly stale = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private closed = false;
  private readonly plus: (a: number, b: number) => number;

  constructor(
    private readonly store: TallyStore<M>,
    private readonly options: TallyOptions,
  ) {
    this.plus = options.plus ?? ((a, b) => a + b);
  }

  /** The key's total as this process knows it: the shared total it saw plus what it added since. */
  async value(key: string): Promise<{ value: number; expiresAt?: number }> {
    const now = this.options.now();
    let entry = this.entries.get(key);
    if (!entry || !entry.takes || this.windowEnded(entry, now)) {
      const takes = entry?.takes ?? 0;
      const read = (await this.store.read([key])).get(key);
      entry = this.entries.get(key) ?? this.fresh(key, now);
      if (entry.takes === takes && !entry.writing) this.take(entry, read ?? { value: 0 }, this.options.now());
    } else if (!this.options.alone && now - entry.readAt > this.options.freshMs) {
      this.stale.add(key);
      this.schedule();
    }
    entry.usedAt = now;
    return this.current(entry, now);
  }

  /** Counts `amount` here; written with the next sync. Returns the key's total as now known. */
  add(key: string, amount: number, meta: M): { value: number; before: number } {
    const now = this.options.now();
    const entry = this.entries.get(key) ?? this.fresh(key, now);
    const before = this.current(entry, now).value;
    entry.pending = this.plus(entry.pending, amount);
    entry.meta = meta;
    entry.usedAt = now;
    this.schedule();
    return { value: this.plus(before, amount), before };
  }

  /** Writes what was added and reads the stale totals again; one at a time. */
  sync(): Promise<void> {
    if (this.syncing) return this.syncing.then(() => (this.hasWork() ? this.sync() : undefined));
    clearTimeout(this.timer);
    this.timer = undefined;
    this.syncing = this.runSync().finally(() => {
      this.syncing = undefined;
      if (this.hasWork()) this.schedule();
    });
    return this.syncing;
  }

  /** The last sync; nothing is scheduled after it. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.sync();
  }

  private async runSync(): Promise<void> {
    const items: Array<{ key: string; amount: number; meta: M }> = [];
    for (const [key, entry] of this.entries) {
      if (!entry.pending) continue;
      items.push({ key, amount: entry.pending, meta: entry.meta as M });
      entry.writing = this.plus(entry.writing, entry.pending);
      entry.pending = 0;
    }
    const reread = [...this.stale].filter((key) => !items.some((item) => item.key === key));
    this.stale.clear();
    let written: Map<string, TallyTotal> | undefined;
    try {
      written = items.length ? await this.store.add(items) : new Map();
    } catch (error) {
      // Counted again with the next sync: counts are never dropped on a failed write.
      for (const { key, amount } of items) {
        const entry = this.entries.get(key);
        if (!entry) continue;
        entry.pending = this.plus(entry.pending, amount);
        entry.writing = this.plus(entry.writing, -amount);
      }
      logger.error({ err: error }, "writing the controls' counters failed; retrying with the next sync");
    }
    let read = new Map<string, TallyTotal>();
    if (reread.length) {
      try {
        read = await this.store.read(reread);
      } catch (error) {
        // A failed read is no total of 0 (that would admit past the limit): the totals seen before
        // stay, and the keys are read again with the next sync.
        for (const key of reread) this.stale.add(key);
        reread.length = 0;
        logger.error({ err: error }, "reading the controls' counters failed; retrying with the next sync");
      }
    }
    const now = this.options.now();
    for (const { key, amount } of written ? items : []) {
      const entry = this.entries.get(key);
      const total = written!.get(key);
      if (!entry || !total) continue;
      entry.writing = this.plus(entry.writing, -amount);
      this.take(entry, total, now);
    }
    for (const key of reread) {
      const entry = this.entries.get(key);
      if (entry && !entry.writing) this.take(entry, read.get(key) ?? { value: 0 }, now);
    }
    for (const [key, entry] of this.entries)
      if (now - entry.usedAt > IDLE_MS && !entry.pending && !entry.writing) this.entries.delete(key);
  }

  private take(entry: Entry<M>, total: TallyTotal, now: number): void {
    entry.known = total.value;
    entry.expiresAt = total.expiresAt;
    entry.readAt = now;
    entry.takes++;
  }

  /** The store's window ran out and nothing of this process is in the new one: read it again. */
  private windowEnded(entry: Entry<M>, now: number): boolean {
    return entry.expiresAt !== undefined && entry.expiresAt <= now && !entry.pending && !entry.writing;
  }

  private current(entry: Entry<M>, now: number): { value: number; expiresAt?: number } {
    const expired = entry.expiresAt !== undefined && entry.expiresAt <= now;
    return {
      value: this.plus(this.plus(expired ? 0 : entry.known, entry.writing), entry.pending),
      expiresAt: expired ? undefined : entry.expiresAt,
    };
  }

  private fresh(key: string, now: number): Entry<M> {
    const entry: Entry<M> = { known: 0, readAt: now, takes: 0, usedAt: now, pending: 0, writing: 0 };
    this.entries.set(key, entry);
    return entry;
  }

  private hasWork(): boolean {
    if (this.stale.size) return true;
    for (const entry of this.entries.values()) if (entry.pending) return true;
    return false;
  }

  private schedule(): void {
    if (this.timer || this.syncing || this.closed) return;
    this.timer = setTimeout(() => void this.sync(), this.options.syncMs);
    this.timer.unref();
  }
}

import type { Database } from "@/server/db";
import { listenForChanges, type ChangeListener } from "./change-listener";

export interface NotifiedCacheOptions {
  /** The NOTIFY channel a change of what is cached is announced on, in the change's transaction. */
  channel: string;
  /** What a notification drops: the entry its payload names, or every entry. */
  onNotify: "drop-payload-key" | "clear";
  /** How long an entry is served while listening; absent: until a change drops it. */
  ttlMs?: number;
  /**
   * Where no notification can arrive (`expiry` mode), entries are served for at most this long
   * (CACHE_TTL_WITHOUT_LISTEN_MS; 0: nothing is stored). `set` may name its own.
   */
  ttlWithoutListenMs: number;
  /** Reaching it empties the cache before the next entry is stored; absent: unbounded. */
  maxEntries?: number;
}

/**
 * Values kept in memory for as long as nothing changes them, coherent across processes through a
 * change listener (`change-listener.ts`):
 *
 * - A write announces itself with a NOTIFY on `channel` in its transaction; every process drops
 *   what the notification names when it arrives, and the writer's own process `forget`s at once.
 * - A read that began before a drop is not stored (a generation count, the `ticket`), so what was
 *   read before a change committed is not stored after the change dropped it.
 * - Without a listening connection the cache is emptied and neither serves nor stores until it
 *   listens again (then it is emptied once more): a missed notification leaves nothing stale.
 * - In `expiry` mode (a transaction pooler without DATABASE_DIRECT_URL) entries are served for at
 *   most `ttlWithoutListenMs`: the bound on how long a change made elsewhere takes to arrive.
 *
 * `now` is the caller's clock (ms), which entries expire by.
 */
export class NotifiedCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private generation = 0;
  private readonly listener: ChangeListener;
  /** `when` callers' checks, run after every change, listen and loss. */
  private readonly watchers = new Set<() => void>();

  constructor(
    db: Database,
    private readonly options: NotifiedCacheOptions,
  ) {
    this.listener = listenForChanges(db, options.channel, {
      onChange: (payload) => {
        if (options.onNotify === "clear") this.clear();
        else this.forget(payload);
        this.observed();
      },
      onListening: () => {
        this.clear();
        this.observed();
      },
      onLost: () => {
        this.clear();
        this.observed();
      },
    });
  }

  get serving(): boolean {
    return this.listener.listening || this.listener.mode === "expiry";
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now: number): V | undefined {
    if (!this.serving) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before the read whose value `set` stores. */
  ticket(): number {
    return this.generation;
  }

  set(key: string, value: V, now: number, ticket: number, ttlWithoutListenMs = this.options.ttlWithoutListenMs): void {
    if (!this.serving || ticket !== this.generation) return;
    const ttlMs = this.options.ttlMs ?? Infinity;
    const ttl = this.listener.mode === "expiry" ? Math.min(ttlMs, ttlWithoutListenMs) : ttlMs;
    if (ttl <= 0) return;
    if (this.entries.size >= (this.options.maxEntries ?? Infinity)) this.entries.clear();
    this.entries.set(key, { value, expiresAt: now + ttl });
  }

  forget(key: string): void {
    this.generation++;
    this.entries.delete(key);
  }

  forgetWhere(drops: (value: V) => boolean): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (drops(entry.value)) this.entries.delete(key);
  }

  /**
   * Resolves once `probe` holds: checked now, then after every notification, listen and loss this
   * cache sees. Tests await the listener coming up or a notification's effect with it (bounded by
   * their own time-out) instead of polling.
   */
  when(probe: () => boolean): Promise<void> {
    if (probe()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!probe()) return;
        this.watchers.delete(check);
        resolve();
      };
      this.watchers.add(check);
    });
  }

  private observed(): void {
    for (const check of [...this.watchers]) check();
  }

  stop(): Promise<void> {
    this.clear();
    return this.listener.stop();
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

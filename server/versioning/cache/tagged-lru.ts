export interface TaggedLruLimits {
  maxEntries: number;
  maxBytes: number;
}

export interface TaggedLruStats {
  entries: number;
  bytes: number;
  max_entries: number;
  max_bytes: number;
  hits: number;
  misses: number;
  invalidations: number;
  evictions: number;
}

interface Entry<V> {
  value: V;
  bytes: number;
  tags: string[];
  /** `moves` when the entry last went to the newest end. */
  movedAt: number;
  /** Not served at or after this time (ms); Infinity for entries kept until invalidated. */
  expiresAt: number;
}

/**
 * A least-recently-used map bounded by entry count and by the bytes its values were measured at,
 * whose entries carry tags: `invalidate(tags)` drops every entry holding one of them.
 *
 * A value read from the database before an invalidation and stored after it would be stale
 * forever, so a store names the `ticket` taken before its read (`ticket()`) and is refused when
 * any of its tags was invalidated since.
 *
 * Where no invalidations can arrive (no session to LISTEN on), entries carry an expiry instead,
 * checked against the time `get` is given.
 */
export class TaggedLru<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly byTag = new Map<string, Set<string>>();
  /** When each tag was last invalidated; forgotten past a bound, raising `forgottenBefore`. */
  private readonly invalidatedAt = new Map<string, number>();
  private forgottenBefore = 0;
  /** Tags of changes not yet announced, with how many holds name each: nothing naming them is stored. */
  private readonly held = new Map<string, number>();
  private clock = 0;
  /** Entries put at the newest end so far (stores and moves). */
  private moves = 0;
  private bytes = 0;
  private counts = { hits: 0, misses: 0, invalidations: 0, evictions: 0 };

  constructor(readonly limits: TaggedLruLimits) {}

  ticket(): number {
    return this.clock;
  }

  /** `now` (ms): given when entries may expire. */
  get(key: string, now?: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || (now !== undefined && entry.expiresAt <= now)) {
      if (entry) this.delete(key);
      this.counts.misses++;
      return undefined;
    }
    // Re-inserting moves the key to the newest end of the Map's order. An entry still in the newest
    // quarter stays where it is (a hot entry is hit far more often than anything is stored): the
    // eviction order is least recently used but for entries that all sit in that quarter, and a
    // hit no longer costs a Map delete and insert.
    if (this.moves - entry.movedAt > this.entries.size >> 2) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.movedAt = ++this.moves;
    }
    this.counts.hits++;
    return entry.value;
  }

  /** Stores unless the value is too large or one of its tags was invalidated after `ticket`. */
  set(key: string, value: V, bytes: number, tags: string[], ticket: number, expiresAt = Infinity): boolean {
    if (this.limits.maxEntries <= 0 || bytes > this.limits.maxBytes) return false;
    if (
      ticket < this.forgottenBefore ||
      tags.some((tag) => (this.invalidatedAt.get(tag) ?? -1) > ticket || this.held.has(tag))
    )
      return false;
    this.delete(key);
    this.entries.set(key, { value, bytes, tags, movedAt: ++this.moves, expiresAt });
    this.bytes += bytes;
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    while (this.entries.size > this.limits.maxEntries || this.bytes > this.limits.maxBytes) {
      this.delete(this.entries.keys().next().value!);
      this.counts.evictions++;
    }
    return true;
  }

  invalidate(tags: string[]): void {
    const now = ++this.clock;
    for (const tag of tags) {
      this.invalidatedAt.set(tag, now);
      const keys = this.byTag.get(tag);
      if (!keys) continue;
      for (const key of [...keys]) {
        this.delete(key);
        this.counts.invalidations++;
      }
    }
    // Remembering every tag ever invalidated would grow without bound; past it, refuse every
    // store whose read began before now instead.
    if (this.invalidatedAt.size > 4 * Math.max(1_000, this.limits.maxEntries)) {
      this.invalidatedAt.clear();
      this.forgottenBefore = now;
    }
  }

  /** Drops what names `tags` and stores nothing naming them until as many `release`s. */
  hold(tags: string[]): void {
    this.invalidate(tags);
    for (const tag of tags) this.held.set(tag, (this.held.get(tag) ?? 0) + 1);
  }

  release(tags: string[]): void {
    for (const tag of tags) {
      const count = (this.held.get(tag) ?? 0) - 1;
      if (count > 0) this.held.set(tag, count);
      else this.held.delete(tag);
    }
  }

  /** Drops everything, and refuses stores of reads that began before. */
  clear(): void {
    const now = ++this.clock;
    this.counts.invalidations += this.entries.size;
    this.entries.clear();
    this.byTag.clear();
    this.invalidatedAt.clear();
    this.bytes = 0;
    this.forgottenBefore = now;
  }

  stats(): TaggedLruStats {
    return {
      entries: this.entries.size,
      bytes: this.bytes,
      max_entries: this.limits.maxEntries,
      max_bytes: this.limits.maxBytes,
      ...this.counts,
    };
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}

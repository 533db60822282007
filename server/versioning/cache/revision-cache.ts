import { processWide } from "@/server/core/process-wide";
import { onDatabaseClose, type Database } from "@/server/db";
import type { AppContext } from "@/server/core/app-context";
import type { ResolvedData } from "../embeds";
import type { Resolution } from "../resolve-revision";
import { listenForChanges, type ChangeListener } from "@/server/worker";
import { VERSIONING_CHANNEL } from "./change-tags";
import { parseChangePayload, registerHoldingCache, type HoldingCache } from "./local-holds";
import { TaggedLru, type TaggedLruLimits, type TaggedLruStats } from "./tagged-lru";

/**
 * Past this a hold whose notification never came (its transaction rolled back, or its NOTIFY
 * after the commit failed) is let go as a change.
 */
const HOLD_MS = 10_000;

/**
 * What a retrieve resolved: the revision, the environment hop, and with `resolve` the embeds.
 * Through a split environment, `arms` holds each revision's own answer and its weight; which one
 * serves a request is chosen after the cache (`servedAnswer`), so one cached entry serves every key.
 */
export type Retrieval = Resolution & { resolved?: ResolvedData; arms?: WeightedRetrieval[] };

export interface WeightedRetrieval {
  weight: number;
  answer: Retrieval;
}

/** Called with a change's tags, or with `null` when changes may have been missed (the listener was lost). */
export type ChangeSubscriber = (tags: string[] | null) => void;

export interface RevisionCacheStats extends TaggedLruStats {
  /** `listen`: kept coherent by notifications; `expiry`: none can arrive, answers expire after `ttl_ms`. */
  coherence: "listen" | "expiry";
  listening: boolean;
  ttl_ms?: number;
  /** This process's changes not yet heard back (held): their answers are neither served nor stored meanwhile. */
  held: number;
}

export interface RevisionCacheOptions extends TaggedLruLimits {
  /** How long an answer is served when no notification can arrive (`expiry`); 0 turns the cache off then. */
  ttlWithoutListenMs: number;
  /** How long a change is held at most when its notification does not come (default 10 s). */
  holdMs?: number;
  /** The clock answers expire by (ms). */
  now(): number;
}

/**
 * The process's cache of resolved retrieves for one database, kept coherent by the change
 * listener: it answers and stores only while listening, and forgets everything when the listener
 * is lost (README.md beside this file). Watchers subscribe to the same changes. Where it cannot
 * listen at all (a transaction pooler without DATABASE_DIRECT_URL), an answer is served for at
 * most `ttlWithoutListenMs`, and watchers are told to resolve again as often.
 */
export class RevisionCache implements HoldingCache {
  private readonly lru: TaggedLru<Retrieval>;
  private readonly listener: ChangeListener;
  private readonly subscribers = new Set<ChangeSubscriber>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private poll: NodeJS.Timeout | undefined;
  /** This process's changes not yet heard back, by hold id (local-holds.ts), in the order taken, so in the order they run out. */
  private readonly holds = new Map<string, { tags: string[]; until: number }>();
  private readonly holdMs: number;
  private holdTimer: NodeJS.Timeout | undefined;
  private readonly unregister: () => void;
  /** When a change was last heard of, or the listener (re)started (`Date.now()`). */
  private changedAt = Date.now();

  constructor(db: Database, options: RevisionCacheOptions) {
    this.lru = new TaggedLru({ maxEntries: options.maxEntries, maxBytes: options.maxBytes });
    this.ttlMs = options.ttlWithoutListenMs;
    this.now = options.now;
    this.holdMs = options.holdMs ?? HOLD_MS;
    this.listener = listenForChanges(db, VERSIONING_CHANNEL, {
      onChange: (payload) => {
        const change = parseChangePayload(payload);
        this.changed(change.tags, change.holdId);
      },
      onListening: () => {
        this.changedAt = Date.now();
        this.lru.clear();
        for (const subscriber of this.subscribers) subscriber(null);
      },
      onLost: () => {
        this.lru.clear();
        for (const subscriber of this.subscribers) subscriber(null);
      },
    });
    this.unregister = registerHoldingCache(this);
  }

  hold(id: string, tags: string[]): void {
    // No notification would release a hold: drop the old answers, and let what is read before
    // the commit expire like every answer does here.
    if (this.expiring) return this.lru.invalidate(tags);
    this.holds.set(id, { tags, until: performance.now() + this.holdMs });
    this.lru.hold(tags);
    // One timer for every hold, not one each (a timer per commit was a measurable share of its CPU).
    this.holdTimer ??= setTimeout(() => this.releaseExpired(), this.holdMs).unref();
  }

  /**
   * A change is visible (its notification came) or its hold ran out: what names its tags goes,
   * reads that began before are not stored, and its tags may be stored again.
   */
  private changed(tags: string[], holdId?: string): void {
    this.changedAt = Date.now();
    this.lru.invalidate(tags);
    if (holdId !== undefined) {
      const held = this.holds.get(holdId);
      if (held) this.lru.release(held.tags);
      this.holds.delete(holdId);
    }
    for (const subscriber of this.subscribers) subscriber(tags);
  }

  /**
   * A hold whose notification never came: a rollback, or a NOTIFY after the commit that failed,
   * so it counts as a change. Past `holdMs` the commit it waited for has long been visible, so
   * what is read from then on is current.
   */
  private releaseExpired(): void {
    const now = performance.now();
    for (const [id, hold] of this.holds) {
      if (hold.until > now) break;
      this.changed(hold.tags, id);
    }
    const next = this.holds.values().next().value;
    this.holdTimer = next ? setTimeout(() => this.releaseExpired(), next.until - now).unref() : undefined;
  }

  get serving(): boolean {
    return this.lru.limits.maxEntries > 0 && (this.listener.listening || this.expiring);
  }

  private get expiring(): boolean {
    return this.listener.mode === "expiry" && this.ttlMs > 0;
  }

  get(key: string): Retrieval | undefined {
    if (!this.serving) return undefined;
    return this.expiring ? this.lru.get(key, this.now()) : this.lru.get(key);
  }

  /**
   * From when a replica must hold every commit to answer a miss this cache will store
   * (`replicaRead`'s `freshSince`): the last change heard of. A replica behind it would store an
   * answer that change already dropped, and nothing would drop it again. Changes heard during the
   * read are the ticket's business. `null` where changes are not heard (expiry): the primary.
   */
  get replicaFreshSince(): number | null {
    return this.listener.listening ? this.changedAt : null;
  }

  /** Taken before the database read whose answer `set` stores. */
  ticket(): number {
    return this.lru.ticket();
  }

  set(key: string, value: Retrieval, tags: string[], ticket: number): void {
    if (!this.serving) return;
    const expiresAt = this.expiring ? this.now() + this.ttlMs : Infinity;
    this.lru.set(key, value, JSON.stringify(value).length, tags, ticket, expiresAt);
  }

  subscribe(subscriber: ChangeSubscriber): () => void {
    this.subscribers.add(subscriber);
    if (this.listener.mode === "expiry" && !this.poll) {
      // Nothing announces changes: every watcher resolves again once an answer may have expired.
      this.poll = setInterval(() => {
        for (const s of this.subscribers) s(null);
      }, this.ttlMs || 1_000);
      this.poll.unref();
    }
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0) this.stopPoll();
    };
  }

  stats(): RevisionCacheStats {
    const { mode, listening } = this.listener;
    return {
      coherence: mode,
      listening,
      ...(mode === "expiry" ? { ttl_ms: this.ttlMs } : {}),
      ...this.lru.stats(),
      held: this.holds.size,
    };
  }

  stop(): Promise<void> {
    this.unregister();
    this.stopPoll();
    clearTimeout(this.holdTimer);
    this.lru.clear();
    return this.listener.stop();
  }

  private stopPoll(): void {
    clearInterval(this.poll);
    this.poll = undefined;
  }
}

/** One cache per app (and so per database pool) in the process, closed with its database. */
export const revisionCacheFor = processWide<AppContext, RevisionCache>("revision-caches", (app) => {
  const cache = new RevisionCache(app.db, {
    ...app.config.revisionCache,
    ttlWithoutListenMs: app.config.cacheTtlWithoutListenMs,
    now: () => app.now().getTime(),
  });
  onDatabaseClose(app.db, () => cache.stop());
  return cache;
});

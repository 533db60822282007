import { processWide } from "@/server/core/process-wide";
import { onDatabaseClose, type Database } from "@/server/db";
import type { AppContext } from "@/server/core/app-context";
import type { ResolvedData } from "../embeds";
import type { Resolution } from "../resolve-revision";
import { listenForChanges, type ChangeListener } from "@/server/worker";
import { VERSIONING_CHANNEL } from "./change-tags";
import { TaggedLru, type TaggedLruLimits, type TaggedLruStats } from "./tagged-lru";

/** What a retrieve resolved: the revision, the environment hop, and with `resolve` the embeds. */
export type Retrieval = Resolution & { resolved?: ResolvedData };

/** Called with a change's tags, or with `null` when changes may have been missed (the listener was lost). */
export type ChangeSubscriber = (tags: string[] | null) => void;

export interface RevisionCacheStats extends TaggedLruStats {
  listening: boolean;
}

/**
 * The process's cache of resolved retrieves for one database, kept coherent by the change
 * listener: it answers and stores only while listening, and forgets everything when the listener
 * is lost (README.md beside this file). Watchers subscribe to the same changes.
 */
export class RevisionCache {
  private readonly lru: TaggedLru<Retrieval>;
  private readonly listener: ChangeListener;
  private readonly subscribers = new Set<ChangeSubscriber>();

  constructor(db: Database, limits: TaggedLruLimits) {
    this.lru = new TaggedLru(limits);
    this.listener = listenForChanges(db, VERSIONING_CHANNEL, {
      onChange: (payload) => {
        const tags = payload.split(" ");
        this.lru.invalidate(tags);
        for (const subscriber of this.subscribers) subscriber(tags);
      },
      onListening: () => {
        this.lru.clear();
        for (const subscriber of this.subscribers) subscriber(null);
      },
      onLost: () => this.lru.clear(),
    });
  }

  get serving(): boolean {
    return this.listener.listening && this.lru.limits.maxEntries > 0;
  }

  get(key: string): Retrieval | undefined {
    return this.serving ? this.lru.get(key) : undefined;
  }

  /** Taken before the database read whose answer `set` stores. */
  ticket(): number {
    return this.lru.ticket();
  }

  set(key: string, value: Retrieval, tags: string[], ticket: number): void {
    if (!this.serving) return;
    this.lru.set(key, value, JSON.stringify(value).length, tags, ticket);
  }

  subscribe(subscriber: ChangeSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  stats(): RevisionCacheStats {
    return { listening: this.listener.listening, ...this.lru.stats() };
  }

  stop(): Promise<void> {
    this.lru.clear();
    return this.listener.stop();
  }
}

/** One cache per app (and so per database pool) in the process, closed with its database. */
export const revisionCacheFor = processWide<AppContext, RevisionCache>("revision-caches", (app) => {
  const cache = new RevisionCache(app.db, app.config.revisionCache);
  onDatabaseClose(app.db, () => cache.stop());
  return cache;
});

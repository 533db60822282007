import { logger } from "@/server/core/logger";

/** Something a pool can end: a process with its directory. */
export interface Closable {
  close(): Promise<void>;
}

interface Entry<T> {
  value: T;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Parked sessions between turns, keyed by project and session. A turn `take`s its session out
 * (so two turns never drive one process) and `park`s it again when it ends; a session left idle
 * past `idleMs` is closed, and past `max` parked sessions the longest-idle one is.
 */
export class WarmSessionPool<T extends Closable> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Closes the pool started on its own (idle expiry, eviction), until each has ended. */
  private readonly closing = new Set<Promise<void>>();
  private readonly emptied: Array<() => void> = [];

  constructor(private readonly options: { idleMs: number; max: number }) {}

  take(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.entries.delete(key);
    return entry.value;
  }

  park(key: string, value: T): void {
    const previous = this.take(key);
    if (previous && previous !== value) this.end(previous);
    const timer = setTimeout(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
      this.end(value);
    }, this.options.idleMs);
    timer.unref?.();
    this.entries.set(key, { value, timer });
    while (this.entries.size > this.options.max) {
      const oldest = this.entries.keys().next().value as string;
      this.end(this.take(oldest)!);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Closes every parked session, and waits for the closes the pool started before. */
  async closeAll(): Promise<void> {
    const values = [...this.entries.keys()].map((key) => this.take(key)!);
    await Promise.all([...values.map((value) => value.close()), ...this.closing]);
  }

  /**
   * Resolves once no session is parked and none the pool closed is still closing (its process
   * gone, its directory removed): shutdown and tests await an idle expiry's end with it.
   */
  whenEmpty(): Promise<void> {
    return new Promise((resolve) => {
      this.emptied.push(resolve);
      this.settle();
    });
  }

  private end(value: T): void {
    const closing: Promise<void> = value
      .close()
      .catch((error: unknown) => logger.warn({ err: error }, "a warm session did not close cleanly"))
      .finally(() => {
        this.closing.delete(closing);
        this.settle();
      });
    this.closing.add(closing);
  }

  private settle(): void {
    if (this.entries.size > 0 || this.closing.size > 0) return;
    for (const resolve of this.emptied.splice(0)) resolve();
  }
}

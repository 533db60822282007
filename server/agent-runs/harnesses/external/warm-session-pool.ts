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
    if (previous && previous !== value) void previous.close();
    const timer = setTimeout(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
      void value.close();
    }, this.options.idleMs);
    timer.unref?.();
    this.entries.set(key, { value, timer });
    while (this.entries.size > this.options.max) {
      const oldest = this.entries.keys().next().value as string;
      void this.take(oldest)?.close();
    }
  }

  get size(): number {
    return this.entries.size;
  }

  async closeAll(): Promise<void> {
    const values = [...this.entries.keys()].map((key) => this.take(key)!);
    await Promise.all(values.map((value) => value.close()));
  }
}

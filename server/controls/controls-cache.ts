import { rawQuery, type Database, type Executor } from "@/server/db";
import { listenForChanges, type ChangeListener } from "@/server/worker";

/** The channel a change of a project's controls is announced on; the payload is the project's id. */
export const CONTROLS_CHANNEL = "controls_changed";

/**
 * A project's control rows, kept in memory for as long as nothing changes them, coherent like the
 * API key cache (server/auth/principal-cache.ts), through the same listener:
 *
 * - A write announces itself with a NOTIFY in its transaction (`announceControlsChange`); every
 *   process drops the project when it arrives, and the writer's own process drops it at once.
 * - A read that began before a drop is not stored (a generation count), so a read of the old rows
 *   cannot be stored after the change that dropped them.
 * - Without a listening connection the cache is emptied and neither serves nor stores until it
 *   listens again. Where no notification can arrive (a transaction pooler without
 *   DATABASE_DIRECT_URL), an entry is served for at most `ttlWithoutListenMs`.
 */
export class ControlsCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();
  private generation = 0;
  private readonly listener: ChangeListener;

  constructor(
    db: Database,
    private readonly ttlWithoutListenMs: number,
  ) {
    this.listener = listenForChanges(db, CONTROLS_CHANNEL, {
      onChange: (projectId) => this.forget(projectId),
      onListening: () => this.clear(),
      onLost: () => this.clear(),
    });
  }

  private get serving(): boolean {
    return this.listener.listening || (this.listener.mode === "expiry" && this.ttlWithoutListenMs > 0);
  }

  /** `now`: the app's clock (ms), which expiry-mode entries expire by. */
  get(projectId: string, now: number): T | undefined {
    if (!this.serving) return undefined;
    const entry = this.entries.get(projectId);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(projectId);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before the read whose rows `set` stores. */
  ticket(): number {
    return this.generation;
  }

  set(projectId: string, value: T, now: number, ticket: number): void {
    if (!this.serving || ticket !== this.generation) return;
    const expiresAt = this.listener.mode === "expiry" ? now + this.ttlWithoutListenMs : Infinity;
    this.entries.set(projectId, { value, expiresAt });
  }

  forget(projectId: string): void {
    this.generation++;
    this.entries.delete(projectId);
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

/** In a control's write transaction: every process drops the project's controls once it commits. */
export async function announceControlsChange(db: Executor, projectId: string): Promise<void> {
  await rawQuery(db, `select pg_notify('${CONTROLS_CHANNEL}', $1)`, [projectId]);
}

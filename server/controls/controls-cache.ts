import { rawQuery, type Database, type Executor } from "@/server/db";
import { NotifiedCache } from "@/server/worker";

/** The channel a change of a project's controls is announced on; the payload is the project's id. */
export const CONTROLS_CHANNEL = "controls_changed";

/**
 * A project's control rows, keyed by project id, kept in memory for as long as nothing changes
 * them: a `NotifiedCache` (server/worker/notified-cache.ts: generation ticket, lost listener,
 * expiry mode), like the API key cache. A write announces itself with a NOTIFY in its transaction
 * (`announceControlsChange`); every process drops the project when it arrives, and the writer's
 * own process drops it at once. No expiry while listening; without listening, `ttlWithoutListenMs`.
 */
export class ControlsCache<T> extends NotifiedCache<T> {
  private readonly drops = new Map<string, Array<() => void>>();

  constructor(db: Database, ttlWithoutListenMs: number) {
    super(db, { channel: CONTROLS_CHANNEL, onNotify: "drop-payload-key", ttlWithoutListenMs });
  }

  /** Resolves once `projectId` is next dropped: its notification arrived, or this process wrote. */
  dropped(projectId: string): Promise<void> {
    return new Promise((resolve) => this.drops.set(projectId, [...(this.drops.get(projectId) ?? []), resolve]));
  }

  override forget(projectId: string): void {
    super.forget(projectId);
    const waiting = this.drops.get(projectId);
    this.drops.delete(projectId);
    waiting?.forEach((resolve) => resolve());
  }
}

/** In a control's write transaction: every process drops the project's controls once it commits. */
export async function announceControlsChange(db: Executor, projectId: string): Promise<void> {
  await rawQuery(db, `select pg_notify('${CONTROLS_CHANNEL}', $1)`, [projectId]);
}

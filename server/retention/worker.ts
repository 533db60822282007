import type { AppContext } from "@/server/core/app-context";
import { rawQuery } from "@/server/db";
import { startWakeLoop, type BackgroundWorker } from "@/server/worker";
import { RETENTION_KINDS, type RetentionKind } from "./retention-kinds";

/** Rows one statement deletes at most: a short transaction, a few ms of locks on old rows only. */
export const RETENTION_BATCH = 1_000;
/** Time makes rows expire, not a notification: a poll, then passes back to back while any finds work. */
const POLL_MS = 60_000;
const DAY_MS = 86_400_000;

export interface RetentionPassOptions {
  /** Rows per statement (tests make it small to see the batches). */
  batch?: number;
}

/**
 * One pass of a kind: its rows past their own expiry (kind.expired), what it can drop whole
 * (kind.dropWhole), then for each project that limits
 * it, one bounded statement (the first step that still finds rows). Returns the rows deleted and
 * the partitions dropped; 0 when nothing is past its age. Holds no session
 * state and no lock between statements, so it runs the same behind a transaction pooler and in
 * any number of processes at once (SKIP LOCKED splits the rows between them).
 */
export async function retentionPass(
  app: Pick<AppContext, "db" | "now">,
  kind: RetentionKind,
  options: RetentionPassOptions = {},
): Promise<number> {
  const batch = options.batch ?? RETENTION_BATCH;
  let deleted = kind.expired ? await kind.expired(app.db, app.now(), batch) : 0;
  // A settings column named by the code, never by input.
  const column = kind.field;
  if (!column) return deleted;
  const projects = await rawQuery<{ project_id: string; days: number }>(
    app.db,
    `select project_id, ${column} as days from retention_settings where ${column} is not null`,
  );
  const now = app.now().getTime();
  if (kind.dropWhole && projects.length > 0) {
    const horizons = new Map(projects.map((p) => [p.project_id, now - p.days * DAY_MS]));
    deleted += await kind.dropWhole(app.db, horizons);
  }
  for (const { project_id: projectId, days } of projects) {
    const cutoff = new Date(now - days * DAY_MS);
    for (const step of kind.steps) {
      const n = await step(app.db, projectId, cutoff, batch);
      deleted += n;
      if (n > 0) break;
    }
  }
  return deleted;
}

/** Passes until one finds nothing or `limit` rows are deleted (the cron route's bounded drain). */
export async function drainRetention(
  app: Pick<AppContext, "db" | "now">,
  kind: RetentionKind,
  limit: number,
  options: RetentionPassOptions = {},
): Promise<number> {
  let total = 0;
  while (total < limit) {
    const deleted = await retentionPass(app, kind, options);
    if (deleted === 0) break;
    total += deleted;
  }
  return total;
}

/** One worker per stored kind, so a slow kind (millions of spans) never holds up another. */
export const retentionWorkers: BackgroundWorker[] = RETENTION_KINDS.map((kind) => ({
  name: `retention-${kind.name}`,
  start: (app) => startWakeLoop(`retention-${kind.name}`, () => retentionPass(app, kind), POLL_MS),
  drain: (app, limit) => drainRetention(app, kind, limit),
}));

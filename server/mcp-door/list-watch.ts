import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { processWide } from "@/server/core/process-wide";
import { onDatabaseClose, type Database } from "@/server/db";
import { exposedNow, listenForExposureChanges } from "@/server/exposure";
import { listenForVersioningChanges } from "@/server/versioning";

interface Watcher {
  server: Server;
  userId: string;
  /** What the client was last told the lists are. */
  fingerprint: string;
}

interface ListWatch {
  byProject: Map<string, Set<Watcher>>;
  /** The projects changed since the timer was set. */
  pending: Set<string>;
  timer?: NodeJS.Timeout;
}

// Changes come in bursts (a deploy commits several): the lists are compared once per burst.
const SETTLE_MS = 50;

/**
 * The open GET streams of each project, told `list_changed` when what they list changes: at once
 * when the owner changes the exposure (its NOTIFY), and after any committed versioning change of
 * the project (a deploy moves an environment's head; an edit or archive changes what is listed)
 * when its exposed list differs from what the stream was last told. Both channels are heard on
 * every instance, so the stream's instance tells its client whichever instance made the change.
 */
const watchOf = processWide<Database, ListWatch>("mcp-list-watch", (db) => {
  const watch: ListWatch = { byProject: new Map(), pending: new Set() };
  const recheck = (projectId: string) => {
    if (!watch.byProject.has(projectId)) return;
    watch.pending.add(projectId);
    watch.timer ??= setTimeout(() => {
      watch.timer = undefined;
      const changed = [...watch.pending];
      watch.pending.clear();
      for (const id of changed) for (const watcher of watch.byProject.get(id) ?? []) void compare(db, id, watcher);
    }, SETTLE_MS);
  };
  const exposure = listenForExposureChanges(db, (projectId) => recheck(projectId));
  // Listening (again): what changed while no one listened is compared too.
  const versioning = listenForVersioningChanges(db, (projectId) => recheck(projectId), {
    onListening: () => watch.byProject.forEach((_, projectId) => recheck(projectId)),
  });
  onDatabaseClose(db, async () => {
    clearTimeout(watch.timer);
    await Promise.all([exposure.stop(), versioning.stop()]);
  });
  return watch;
});

async function fingerprintOf(db: Database, projectId: string, userId: string): Promise<string> {
  const targets = await exposedNow(db, { projectId, userId });
  return JSON.stringify(targets.map((t) => [t.kind, t.name, t.revisionId, t.description]));
}

async function compare(db: Database, projectId: string, watcher: Watcher): Promise<void> {
  const now = await fingerprintOf(db, projectId, watcher.userId).catch(() => watcher.fingerprint);
  if (now === watcher.fingerprint) return;
  watcher.fingerprint = now;
  await Promise.all([
    watcher.server.sendToolListChanged(),
    watcher.server.sendPromptListChanged(),
    watcher.server.sendResourceListChanged(),
  ]).catch(() => undefined);
}

/** Watches the project's lists for one GET stream's server until `stop`. */
export async function watchLists(db: Database, projectId: string, userId: string, server: Server): Promise<() => void> {
  const watch = watchOf(db);
  const watcher: Watcher = { server, userId, fingerprint: await fingerprintOf(db, projectId, userId) };
  const watchers = watch.byProject.get(projectId) ?? new Set();
  watchers.add(watcher);
  watch.byProject.set(projectId, watchers);
  return () => {
    watchers.delete(watcher);
    if (!watchers.size) watch.byProject.delete(projectId);
  };
}

import { rawQuery, type Database, type Executor } from "@/server/db";
import { listenForChanges, type ChangeListener } from "@/server/worker";

/** The channel a change of a project's exposure is announced on; the payload is the project's id. */
export const EXPOSURE_CHANNEL = "exposure_changed";

/** In the change's transaction: every process hears it once the change commits. */
export async function announceExposureChange(db: Executor, projectId: string): Promise<void> {
  await rawQuery(db, `select pg_notify('${EXPOSURE_CHANNEL}', $1)`, [projectId]);
}

/**
 * Calls `onChange(projectId)` for each committed exposure change, on any process (LISTEN; PGlite
 * in-process). Without a listening session (a pooler without a direct URL) nothing is heard.
 */
export function listenForExposureChanges(
  db: Database,
  onChange: (projectId: string) => void,
  { onListening = () => {} }: { onListening?: () => void } = {},
): ChangeListener {
  return listenForChanges(db, EXPOSURE_CHANNEL, { onChange, onListening, onLost: () => {} });
}

import type { Executor } from "@/server/db";
import { applicationTarget, lookupRevision } from "../execution/step-targets";

/**
 * The revision a queue runs its rows through, checked before anything is written: an agent's or
 * a prompt's revision of the project (else `unknown_revision`, naming the id), and one the engine
 * can invoke (else `not_invocable`): a queue whose every output would fail is refused rather than
 * put in front of people as a list of errors.
 */
export async function checkQueueApplication(db: Executor, projectId: string, id: string): Promise<void> {
  await lookupRevision(db, projectId, ["workflows", "applications"], id, "queue.data.application: revision");
  await applicationTarget(db, projectId, {
    key: "application",
    type: "invocation",
    origin: "custom",
    references: { application_revision: { id } },
  });
}

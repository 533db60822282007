import { isAppError, type FieldError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { checkAgentTemplate } from "../agent-template-check";

export type CommitPrecheck =
  { ok: true; warnings: string[]; errors: [] } | { ok: false; warnings: []; errors: FieldError[] };

/** The check a commit runs, as a verdict instead of an error: for the editor, before committing. */
export async function precheckCommit(db: Executor, projectId: string, template: unknown): Promise<CommitPrecheck> {
  try {
    const checked = await checkAgentTemplate(db, projectId, template);
    return { ok: true, warnings: checked.warnings, errors: [] };
  } catch (error) {
    if (isAppError(error) && error.status < 500) {
      return { ok: false, warnings: [], errors: error.errors ?? [{ path: "", message: error.message }] };
    }
    throw error;
  }
}

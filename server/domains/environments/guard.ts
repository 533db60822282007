import { ForbiddenError } from "@/server/core/errors";
import { memberRole } from "@/server/auth";
import type { Executor } from "@/server/db";
import type { ArtifactEditContext, CommitContext } from "@/server/versioning";

/**
 * A guarded environment (`flags.is_guarded`, the compat API's `/simple/environments/{id}/guard`)
 * changes only by an owner's hand: its commits and deploys, and guarding or unguarding it, as
 * the compat API asks its deploy permission there. Members still read it and deploy elsewhere.
 */
export async function assertMayCommitTo(ctx: CommitContext): Promise<void> {
  if (!ctx.artifact.flags?.is_guarded) return;
  await assertOwner(ctx.tx, ctx, `A commit or deploy to the guarded environment "${ctx.artifact.slug}"`);
}

/** An edit that sets or clears `is_guarded` (a PUT's flags replace the stored ones). */
export async function assertMayEditGuard(
  ctx: ArtifactEditContext,
  fields: { flags?: Record<string, boolean> },
): Promise<void> {
  if (!fields.flags || Boolean(fields.flags.is_guarded) === Boolean(ctx.artifact.flags?.is_guarded)) return;
  await assertOwner(
    ctx.db,
    ctx,
    `${fields.flags.is_guarded ? "Guarding" : "Unguarding"} environment "${ctx.artifact.slug}"`,
  );
}

async function assertOwner(
  db: Executor,
  { projectId, userId }: { projectId: string; userId: string },
  action: string,
): Promise<void> {
  const role = await memberRole(db, projectId, userId);
  if (role !== "owner")
    throw new ForbiddenError(
      `${action} needs an owner of the project; your role is ${role ?? "none"}`,
      "insufficient_role",
    );
}

import { eq } from "drizzle-orm";
import { recordAudit } from "@/server/audit";
import type { Database } from "@/server/db";
import { users } from "@/server/db/schema";
import { listMemberships } from "./members";

/**
 * Records a sign-in attempt in the audit log of every project of the user it names (so each
 * project's owners see their members' sign-ins), or once without a project when the e-mail is
 * nobody's. The e-mail is kept as the actor's label; the password never reaches this function.
 */
export async function auditSignIn(
  db: Database,
  attempt: { email: string; succeeded: boolean; userId?: string; clientAddress?: string },
): Promise<void> {
  const email = attempt.email.trim().toLowerCase().slice(0, 320);
  const userId = attempt.userId ?? (await db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id;
  const projects = userId ? (await listMemberships(db, userId)).map((m) => m.projectId) : [];
  const action = attempt.succeeded ? "sign_in.succeeded" : "sign_in.failed";
  await db.transaction(async (tx) => {
    for (const projectId of projects.length ? projects : [null]) {
      await recordAudit(tx, {
        projectId,
        action,
        targetType: "user",
        targetId: userId ?? null,
        actor: { userId: attempt.succeeded ? userId : null, label: email, clientAddress: attempt.clientAddress },
      });
    }
  });
}

import { eq } from "drizzle-orm";
import { z } from "zod";
import { NotFoundError } from "@/server/core/errors";
import type { Principal } from "@/server/core/principal";
import type { Executor } from "@/server/db";
import { users } from "@/server/db/schema";

/** The reference implementation's user profile (`GET /profile`, which its health checks and SDK call first). */
export const profileWire = z.object({
  id: z.string(),
  uid: z.string(),
  email: z.string(),
  username: z.string(),
  project_id: z.string(),
  role: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The caller's user: who the key (or session) acts as, in which project and role. */
export async function getProfile(db: Executor, principal: Principal): Promise<z.infer<typeof profileWire>> {
  const [user] = await db.select().from(users).where(eq(users.id, principal.userId));
  if (!user) throw new NotFoundError(`the user ${principal.userId} of this key no longer exists`);
  return {
    id: user.id,
    uid: user.id,
    email: user.email,
    username: user.name || user.email.split("@")[0],
    project_id: principal.projectId,
    role: principal.role,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

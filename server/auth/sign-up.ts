import type { ProjectSetup } from "@/server/core/app-context";
import { hashPassword } from "better-auth/crypto";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { ConflictError, ForbiddenError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Database, Transaction } from "@/server/db";
import { accounts, projectMembers, projects, users } from "@/server/db/schema";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./better-auth";
import { consumeInvite } from "./invites";
import { createProject } from "./projects";

export const credentialsSchema = z.strictObject({
  name: z.string().trim().min(1, "Enter your name").max(200),
  email: z.string().trim().toLowerCase().pipe(z.email("Enter an email address like ada@example.com")),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters`),
});
export type Credentials = z.infer<typeof credentialsSchema>;

/** Whether anyone can log in yet: until then the playground offers to create the owner account. */
export async function ownerExists(db: Database): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.providerId, "credential"))
    .limit(1);
  return row !== undefined;
}

/**
 * The first login on an instance: the default user (made at first start, the owner of the default
 * project and of the key printed then) gets this email, name and password, so that key keeps
 * working and acts as the owner. Refused once any login exists.
 */
export async function createOwnerAccount(
  db: Database,
  setups: readonly ProjectSetup[],
  input: Credentials,
): Promise<{ userId: string }> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    // Serialises concurrent first sign-ups: the second one waits here, then sees the first login.
    const [project] = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(eq(projects.isDefault, true))
      .for("update");
    const [existing] = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.providerId, "credential"))
      .limit(1);
    if (existing)
      throw new ForbiddenError(
        "The owner account already exists; log in, or ask an owner for an invite",
        "owner_exists",
      );
    await assertEmailFree(tx, input.email);
    const userId = project
      ? await claimDefaultUser(tx, project.id, input)
      : await insertUserWithProject(tx, setups, input, true);
    await insertCredential(tx, userId, passwordHash);
    return { userId };
  });
}

/**
 * Everyone after the owner: with an invite token they join its project with its role; without
 * one only when the operator opened sign-up (SIGN_UP=open), and they get a project of their own.
 */
export async function signUp(
  db: Database,
  setups: readonly ProjectSetup[],
  input: Credentials & { inviteToken?: string; signUpOpen: boolean },
): Promise<{ userId: string; projectId: string }> {
  if (!input.inviteToken && !input.signUpOpen) {
    throw new ForbiddenError(
      "Sign-up is closed on this instance; ask a project owner for an invite link",
      "sign_up_closed",
    );
  }
  const passwordHash = await hashPassword(input.password);
  const { inviteToken } = input;
  return db.transaction(async (tx) => {
    await assertEmailFree(tx, input.email);
    const userId = newId();
    await tx.insert(users).values({ id: userId, email: input.email, name: input.name });
    await insertCredential(tx, userId, passwordHash);
    const projectId = inviteToken
      ? (await consumeInvite(tx, inviteToken, userId)).projectId
      : (await createProject(tx, setups, { name: `${input.name}'s project`, ownerId: userId })).id;
    return { userId, projectId };
  });
}

/** A signed-in user joins the invite's project (people with a login in another project). */
export async function acceptInvite(db: Database, userId: string, token: string): Promise<{ projectId: string }> {
  return db.transaction(async (tx) => ({ projectId: (await consumeInvite(tx, token, userId)).projectId }));
}

async function claimDefaultUser(tx: Transaction, projectId: string, input: Credentials): Promise<string> {
  const [owner] = await tx
    .select({ userId: projectMembers.userId })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.role, "owner")))
    .orderBy(asc(projectMembers.createdAt))
    .limit(1);
  await tx
    .update(users)
    .set({ email: input.email, name: input.name, updatedAt: new Date() })
    .where(eq(users.id, owner.userId));
  return owner.userId;
}

async function insertUserWithProject(
  tx: Transaction,
  setups: readonly ProjectSetup[],
  input: Credentials,
  isDefault: boolean,
): Promise<string> {
  const userId = newId();
  await tx.insert(users).values({ id: userId, email: input.email, name: input.name });
  await createProject(tx, setups, { name: "Default project", ownerId: userId, isDefault });
  return userId;
}

async function insertCredential(tx: Transaction, userId: string, passwordHash: string): Promise<void> {
  await tx
    .insert(accounts)
    .values({ id: newId(), userId, accountId: userId, providerId: "credential", password: passwordHash });
}

async function assertEmailFree(tx: Transaction, email: string): Promise<void> {
  const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (taken) throw new ConflictError(`An account with email ${email} already exists; log in instead`, "email_taken");
}

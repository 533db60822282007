import { and, eq } from "drizzle-orm";
import { ConflictError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Database } from "@/server/db";
import { projectMembers, projects, users } from "@/server/db/schema";
import { createApiKey, type ApiKeyRecord } from "./api-keys";
import type { ProjectSetup } from "@/server/core/app-context";
import type { Principal } from "@/server/core/principal";
import { createProject, type ProjectRecord } from "./projects";

export interface UserRecord {
  id: string;
  email: string;
  name: string | null;
  createdAt: Date;
}

export interface Account {
  user: UserRecord;
  project: ProjectRecord;
  apiKey: ApiKeyRecord;
  secret: string;
}

export interface CreateAccountInput {
  email: string;
  name?: string | null;
  projectName: string;
  keyName?: string | null;
  isDefault?: boolean;
}

/** A user, a project they own and a first API key, all or nothing. */
export async function createAccount(
  db: Database,
  setups: readonly ProjectSetup[],
  input: CreateAccountInput,
): Promise<Account> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
    if (existing) throw new ConflictError(`A user with email ${input.email} already exists`, "user_exists");
    const [user] = await tx
      .insert(users)
      .values({ id: newId(), email: input.email, name: input.name ?? null })
      .returning({ id: users.id, email: users.email, name: users.name, createdAt: users.createdAt });
    const project = await createProject(tx, setups, {
      name: input.projectName,
      ownerId: user.id,
      isDefault: input.isDefault,
    });
    const { apiKey, secret } = await createApiKey(tx, {
      projectId: project.id,
      userId: user.id,
      name: input.keyName ?? "default",
    });
    return { user, project, apiKey, secret };
  });
}

const DEFAULT_EMAIL = "default@localhost";

/**
 * First start of an empty database: create the default user and project so a newcomer can call
 * the API at once. Returns the account (with its one-time secret) only when it was just created.
 */
export async function ensureDefaultAccount(db: Database, setups: readonly ProjectSetup[]): Promise<Account | null> {
  if (await findDefaultPrincipal(db)) return null;
  try {
    return await createAccount(db, setups, {
      email: DEFAULT_EMAIL,
      name: "Default user",
      projectName: "Default project",
      keyName: "default",
      isDefault: true,
    });
  } catch (error) {
    // Another process created it between our check and insert.
    if (await findDefaultPrincipal(db)) return null;
    throw error;
  }
}

/** The first owner of the default project: the account made on first start. */
export async function findDefaultPrincipal(db: Database): Promise<Principal | null> {
  const [row] = await db
    .select({ projectId: projects.id, userId: projectMembers.userId })
    .from(projects)
    .innerJoin(projectMembers, eq(projectMembers.projectId, projects.id))
    .where(and(eq(projects.isDefault, true), eq(projectMembers.role, "owner")))
    .orderBy(projectMembers.createdAt)
    .limit(1);
  return row ? { ...row, role: "owner" } : null;
}

import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "@/server/db";
import { instanceSettings } from "@/server/db/schema";

const KEY = "auth_secret";

/**
 * The secret that signs session cookies: AUTH_SECRET when set, otherwise one the instance makes on
 * its first start and keeps in its database, so every process on that database agrees without
 * configuration. (Anyone who can read the database can read the sessions table anyway.)
 */
export async function loadAuthSecret(db: Database, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db
    .insert(instanceSettings)
    .values({ key: KEY, value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db
    .select({ value: instanceSettings.value })
    .from(instanceSettings)
    .where(eq(instanceSettings.key, KEY));
  return row.value;
}

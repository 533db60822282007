import { eq } from "drizzle-orm";
import type { Database } from "@/server/db";
import { secretKeyChecks } from "@/server/db/schema";
import { SecretKeyMismatchError, type SecretBox } from "./secret-box";

const CHECK_ID = "default";
const CHECK_PLAINTEXT = "secret-key-check";

/**
 * Seals a known value into the database on first boot and opens it on every later boot, so a
 * changed or mistyped APP_SECRET_KEY stops the server at start-up instead of surfacing later as
 * secrets that no longer open.
 */
export async function verifySecretKey(db: Database, box: SecretBox): Promise<void> {
  await db
    .insert(secretKeyChecks)
    .values({ id: CHECK_ID, sealed: box.seal(CHECK_PLAINTEXT) })
    .onConflictDoNothing();
  const [row] = await db.select().from(secretKeyChecks).where(eq(secretKeyChecks.id, CHECK_ID));
  let opened: string | undefined;
  try {
    opened = box.open(row.sealed);
  } catch (error) {
    throw new SecretKeyMismatchError(
      `The secret key does not match the one this database's secrets were sealed with (${(error as Error).message}). ` +
        "Set APP_SECRET_KEY to the original key (or restore the key file under DATA_DIR).",
    );
  }
  if (opened !== CHECK_PLAINTEXT) throw new SecretKeyMismatchError("The secret key check value is corrupt");
}

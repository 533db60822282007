import type { Config } from "@/server/core/config";
import type { Database, DatabaseKind, Transaction } from "@/server/db";
import type { SecretBox } from "@/server/encryption";

/**
 * Starting rows a new project gets (the standard environments, for one), run in the transaction
 * that creates it. The composition root (server/boot) decides the list, so tenancy does not need
 * to know the areas that seed.
 */
export type ProjectSetup = (tx: Transaction, project: { projectId: string; ownerId: string }) => Promise<void>;

/**
 * What every request handler and worker can reach: built once per process (or per test) by the
 * composition root. Types only, so every layer may name it.
 */
export interface AppContext {
  db: Database;
  dbKind: DatabaseKind;
  config: Config;
  /** Seals and opens secrets stored in the database (webhook secrets, provider keys). */
  secrets: SecretBox;
  /** Run for every project created, in its transaction. */
  projectSetups: readonly ProjectSetup[];
  /**
   * The clock of rules that span days (approval expiry): the system clock in the app, a clock a
   * test moves forward to answer "a day later" without editing rows.
   */
  now(): Date;
}

import type { Config } from "@/server/core/config";
import type { Database, DatabaseKind } from "@/server/db";
import type { SecretBox } from "@/server/secrets";

/** What every request handler can reach: built once per process (or per test). */
export interface AppContext {
  db: Database;
  dbKind: DatabaseKind;
  config: Config;
  /** Seals and opens secrets stored in the database (webhook secrets, provider keys). */
  secrets: SecretBox;
}

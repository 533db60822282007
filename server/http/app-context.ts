import type { Config } from "@/server/core/config";
import type { Database, DatabaseKind } from "@/server/db";

/** What every request handler can reach: built once per process (or per test). */
export interface AppContext {
  db: Database;
  dbKind: DatabaseKind;
  config: Config;
}

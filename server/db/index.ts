export {
  databaseUrlOf,
  onDatabaseClose,
  openDatabase,
  type Database,
  type DatabaseHandle,
  type DatabaseKind,
  type Executor,
  type Transaction,
} from "./client";
export { migrateDatabase } from "./migrate";
export * as tables from "./schema";
export { rowsOf } from "./rows";
export { jsonPlaceholder, preparedQuery, rawQuery, timestampPlaceholder } from "./prepared";

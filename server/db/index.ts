export {
  notificationsOf,
  onDatabaseClose,
  poolerOf,
  openDatabase,
  type Database,
  type DatabaseHandle,
  type DatabaseKind,
  type Executor,
  type Notifications,
  type Transaction,
} from "./client";
export { migrateDatabase } from "./migrate";
export { resolveDatabaseUrls, withDatabaseName, type DatabaseUrls, type PoolerMode } from "./pooler";
export * as tables from "./schema";
export { rowsOf } from "./rows";
export { sendsAfterCommit, transactionThen, type AfterCommit, type Pipelined } from "./after-commit";
export { jsonPlaceholder, preparedQuery, rawQuery, timestampPlaceholder } from "./prepared";
export { ageBatch, countDeleted, type AgeBatch } from "./count-deleted";
export { isUniqueViolation } from "./unique-violation";
export { containsText } from "./contains-text";
export {
  credentialCheckFailure,
  describeDatabaseFailure,
  isDatabaseFailure,
  isDatabaseUnavailable,
} from "./database-failure";
export { recordWrite, replicaRead, type ReplicaReadOptions } from "./read-routing";
export { replicasOf } from "./open-replicas";
export type { ReplicaHealth, ReplicaState } from "./replicas";

export {
  getRetentionSettings,
  KEEP_FOREVER,
  MAX_RETENTION_DAYS,
  retentionSettingsInput,
  setRetentionSettings,
  type RetentionSettings,
} from "./retention-settings";
export { RETENTION_KINDS, type RetentionKind } from "./retention-kinds";
export { drainRetention, RETENTION_BATCH, retentionPass, retentionWorkers } from "./worker";
export { deleteChatSessionData, deleteUserData, type DataDeletion } from "./delete-data";
export { retentionRoutes } from "./routes";

export { recordAudit, type AuditEntry } from "./record-audit";
export { queryAudit, allAuditEntries, type AuditFilter, type AuditRow } from "./query-audit";
export { auditEntryToWire, auditEntryWire, auditFilterFrom, auditFilterInput, type AuditEntryWire } from "./wire";
export { auditExportResponse } from "./export-audit";
export { auditRoutes } from "./routes";

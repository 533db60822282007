export { AuditLogSection } from "./audit-log-section";

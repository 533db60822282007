export { ApiKeysSection } from "./api-keys-section";
export { MembersSection } from "./members-section";
export { DeployGateSection } from "./deploy-gate-section";
export { ModelPricesSection } from "./model-prices-section";
export { AuditLogSection } from "./audit-log-section";
export { RedactionSection } from "./redaction-section";
export { RetentionSection } from "./retention-section";

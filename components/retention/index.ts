export { RetentionSection } from "./retention-section";

export { RedactionSection } from "./redaction-section";

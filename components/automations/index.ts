export { AutomationsSection } from "./automations-section";

export { DeployGateSection } from "./deploy-gate-section";

export { DeployLog } from "./deploy-log";
export { EnvironmentBadge, compareEnvironments, environmentTone } from "./environment-badge";
export { EnvironmentDetail } from "./environment-detail";
export { EnvironmentsIcon } from "./environments-icon";
export { EnvironmentsOverview } from "./environments-overview";

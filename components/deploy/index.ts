export { DeployDialog } from "./deploy-dialog";
export { DeployView } from "./deploy-view";
export { EnvironmentDeployCard } from "./environment-deploy-card";
export { useAgentDeployments, type AgentEnvironment } from "./use-agent-deployments";

export { commitAgentTemplate } from "./commit-template";
export { createAgent } from "./create-agent";
export { listAgents, type AgentListQuery, type AgentSummary } from "./list-agents";
export { checkAgentTemplate } from "../agent-template-check";
export { precheckCommit, type CommitPrecheck } from "./commit-precheck";
export { forkAgentVariant } from "./fork-agent-variant";

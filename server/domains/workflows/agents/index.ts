export { createAgent } from "./create-agent";
export { listAgents, type AgentListQuery, type AgentSummary } from "./list-agents";

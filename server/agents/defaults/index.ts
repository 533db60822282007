export { AGENT_WORKFLOW_URI, agentInspectInterface } from "./agent-inspect-interface";
export { defaultAgentTemplate } from "./default-agent-template";

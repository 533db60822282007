export { AGENT_WORKFLOW_URI, agentInspectInterface, agentInspectInterfaceWire } from "./agent-inspect-interface";
export { defaultAgentTemplate } from "./default-agent-template";

export { AGENT_WORKFLOW_URI, agentInspectInterface, agentInspectInterfaceWire } from "./agent-inspect-interface";
export { defaultAgentTemplate, type StartingModel } from "./default-agent-template";

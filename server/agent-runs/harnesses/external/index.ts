export { AGENTA_TOOLS, serviceToolRules } from "./agenta-tools-server";
export { resolveClaudeConnection } from "./claude-connection";
export { externalHarness, externalSessions } from "./external-harness";

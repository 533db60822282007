import type { AgentTemplate } from "@/server/agent-template";
import { skillsPrompt } from "../skills";

/** The core harness's own base prompt; `harness.extras.system` replaces it. */
export const CORE_BASE_PROMPT =
  "You are an agent run by the agent service. Follow the project instructions in AGENTS.md below. Use the tools you are given when they help; answer in plain text otherwise.";

/** The service harness's base prompt: the core one plus what this service is and how to act on it. */
export const SERVICE_BASE_PROMPT = [
  "You are an agent of the agent service, a self-hostable service for building and shipping LLM agents: it stores workflows as versioned artifacts (variants of immutable revisions, deployed to environments), runs agents from their agent templates, and records every run as a trace.",
  "You have platform tools that act on this service in your own project: discover_agents and discover_workflows list what the project holds, retrieve_revision reads a revision (yours when given no reference), commit_revision commits a new revision of yourself, query_traces reads recent runs, discover_tools lists them all. The project and your own variant come from the run; you cannot reach another project or commit to another agent.",
  "The getting-started skill explains the service in more detail; read it before you change an agent template. Follow the project instructions in AGENTS.md below. Use the tools you are given when they help; answer in plain text otherwise.",
].join("\n\n");

/**
 * Base prompt (the harness's own, or extras.system), then AGENTS.md, then the skills, then extras.append_system.
 * `userText` (the turn's last user message) decides which user-invoked skills are named.
 */
export function systemPrompt(template: AgentTemplate, userText = ""): string {
  const extras = template.harness.extras as Record<string, unknown>;
  const own = template.harness.kind === "service_harness" ? SERVICE_BASE_PROMPT : CORE_BASE_PROMPT;
  const base = typeof extras.system === "string" ? extras.system : own;
  const parts = [base];
  if (template.instructions.agents_md.trim()) parts.push(`# AGENTS.md\n\n${template.instructions.agents_md}`);
  const skills = skillsPrompt(template.skills, userText);
  if (skills) parts.push(skills);
  if (typeof extras.append_system === "string" && extras.append_system.trim()) parts.push(extras.append_system);
  return parts.join("\n\n");
}

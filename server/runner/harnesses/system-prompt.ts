import type { AgentTemplate } from "@/server/agents";
import { skillsPrompt } from "../skills";

/** The core harness's own base prompt; `harness.extras.system` replaces it. */
export const CORE_BASE_PROMPT =
  "You are an agent run by the agent service. Follow the project instructions in AGENTS.md below. Use the tools you are given when they help; answer in plain text otherwise.";

/**
 * Base prompt (or extras.system), then AGENTS.md, then the skills, then extras.append_system.
 * `userText` (the turn's last user message) decides which user-invoked skills are named.
 */
export function systemPrompt(template: AgentTemplate, userText = ""): string {
  const extras = template.harness.extras as Record<string, unknown>;
  const base = typeof extras.system === "string" ? extras.system : CORE_BASE_PROMPT;
  const parts = [base];
  if (template.instructions.agents_md.trim()) parts.push(`# AGENTS.md\n\n${template.instructions.agents_md}`);
  const skills = skillsPrompt(template.skills, userText);
  if (skills) parts.push(skills);
  if (typeof extras.append_system === "string" && extras.append_system.trim()) parts.push(extras.append_system);
  return parts.join("\n\n");
}

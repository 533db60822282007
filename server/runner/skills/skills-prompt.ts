import type { Skill } from "@/server/agents";
import { WORKSPACE_ROOT } from "@/server/sandbox";
import { skillPath } from "./skill-files";

/**
 * The system prompt's skills section: name, description and path of each skill the model may
 * pick by itself. Skills with `disable_model_invocation` are not listed; the section only says
 * where a skill the user names can be found. Empty when the template has no skills.
 */
export function skillsPrompt(skills: Skill[]): string {
  if (!skills.length) return "";
  const listed = skills.filter((skill) => !skill.disable_model_invocation);
  const lines = ["# Skills", ""];
  if (listed.length) {
    lines.push(
      "Skills are folders of instructions in your workspace. When a task matches a skill's description, read its SKILL.md before you start and follow it; files it mentions are beside it.",
      "",
      ...listed.map((skill) => `- ${skill.name}: ${skill.description.replace(/\s+/g, " ").trim()} (${WORKSPACE_ROOT}/${skillPath(skill.name)})`),
    );
  }
  if (listed.length < skills.length) {
    if (listed.length) lines.push("");
    lines.push(`The user may name a skill that is not listed here; read ${WORKSPACE_ROOT}/${skillPath("<name>")} when they do.`);
  }
  return lines.join("\n");
}

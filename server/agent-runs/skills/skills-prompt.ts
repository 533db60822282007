import type { Skill } from "@/server/agent-template";
import { WORKSPACE_ROOT } from "@/server/sandbox";
import { skillPath } from "./skill-files";

/**
 * The system prompt's skills section: name, description and path of each skill the model may
 * pick by itself. A skill with `disable_model_invocation` is listed only in a turn whose user
 * message names it (`/name` or the name itself), as one the user asked for; otherwise the section
 * only says where a skill the user names can be found. Empty when the template has no skills.
 */
export function skillsPrompt(skills: Skill[], userText = ""): string {
  if (!skills.length) return "";
  const invoked = skills.filter((skill) => skill.disable_model_invocation && namesSkill(userText, skill.name));
  const listed = skills.filter((skill) => !skill.disable_model_invocation);
  const lines = ["# Skills", ""];
  if (listed.length) {
    lines.push(
      "Skills are folders of instructions in your workspace. When a task matches a skill's description, read its SKILL.md before you start and follow it; files it mentions are beside it.",
      "",
      ...listed.map(
        (skill) =>
          `- ${skill.name}: ${skill.description.replace(/\s+/g, " ").trim()} (${WORKSPACE_ROOT}/${skillPath(skill.name)})`,
      ),
    );
  }
  for (const skill of invoked) {
    if (lines.length > 2) lines.push("");
    lines.push(
      `The user asked for the skill ${skill.name}: read ${WORKSPACE_ROOT}/${skillPath(skill.name)} first and follow it.`,
    );
  }
  if (listed.length + invoked.length < skills.length) {
    if (lines.length > 2) lines.push("");
    lines.push(
      `The user may name a skill that is not listed here; read ${WORKSPACE_ROOT}/${skillPath("<name>")} when they do.`,
    );
  }
  return lines.join("\n");
}

/** `/name` or the name as a whole word (skill names are kebab-case, so a match is deliberate). */
function namesSkill(text: string, name: string): boolean {
  return new RegExp(`(^|[^a-z0-9-])/?${name}($|[^a-z0-9-])`, "i").test(text);
}

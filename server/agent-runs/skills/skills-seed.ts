import type { AgentTemplate } from "@/server/agent-template";
import { BadRequestError } from "@/server/core/errors";
import type { WorkspaceSeed } from "@/server/sandbox";
import { sandboxAllowsExecutables, skillFiles, SKILLS_FOLDER } from "./skill-files";

/** Built-ins that can read a SKILL.md from the workspace. */
const READERS = ["read", "bash"];

/**
 * What the template's skills put in the session workspace: each `skills/<name>` folder is owned
 * by the template. Refused before the run when two skills share a name, or when the agent has no
 * built-in that could read them (a skill it cannot open would be dropped silently).
 */
export function skillsSeed(template: AgentTemplate): WorkspaceSeed | undefined {
  const { skills } = template;
  if (!skills.length) return undefined;
  const seen = new Set<string>();
  for (const [index, skill] of skills.entries()) {
    if (seen.has(skill.name))
      throw new BadRequestError(
        `skills[${index}].name: a skill named "${skill.name}" is already declared`,
        "duplicate_skill",
      );
    seen.add(skill.name);
  }
  const builtins = template.tools.flatMap((entry) => (entry.type === "builtin" ? [entry.name] : []));
  if (!builtins.some((name) => READERS.includes(name))) {
    throw new BadRequestError(
      'skills: the agent reads its skills from its workspace, and its tools include neither the "read" nor the "bash" built-in; add {"type": "builtin", "name": "read"} to tools',
      "skills_unreadable",
    );
  }
  return {
    folders: skills.map((skill) => `${SKILLS_FOLDER}/${skill.name}`),
    files: skillFiles(skills, sandboxAllowsExecutables(template.sandbox)),
  };
}

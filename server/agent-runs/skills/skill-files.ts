import type { AgentTemplate, Skill } from "@/server/agent-template";
import type { SeedFile } from "@/server/sandbox";
import { skillMarkdown } from "./skill-markdown";

/** Where skills live, relative to the workspace root. */
export const SKILLS_FOLDER = "skills";

export const skillPath = (name: string) => `${SKILLS_FOLDER}/${name}/SKILL.md`;

/**
 * Whether the sandbox lets skill files be executable: not when the template declares a read-only
 * or absent file system (`sandbox.permissions.filesystem` `readonly` or `off`), even where the
 * local sandbox cannot otherwise apply that declaration.
 */
export function sandboxAllowsExecutables(sandbox: AgentTemplate["sandbox"]): boolean {
  const filesystem = sandbox.permissions?.filesystem;
  return filesystem !== "readonly" && filesystem !== "off";
}

/**
 * The files of the template's skills, as laid in the session workspace: `skills/<name>/SKILL.md`
 * and the bundled files beside it. A file is executable (0755) only when the skill allows
 * executable files, the file asks for it, and the sandbox allows it; everything else is 0644.
 */
export function skillFiles(skills: Skill[], executablesAllowed: boolean): SeedFile[] {
  return skills.flatMap((skill) => [
    { path: skillPath(skill.name), content: skillMarkdown(skill), mode: 0o644 },
    ...skill.files.map((file) => ({
      path: `${SKILLS_FOLDER}/${skill.name}/${file.path}`,
      content: file.content,
      mode: skill.allow_executable_files && file.executable && executablesAllowed ? 0o755 : 0o644,
    })),
  ]);
}

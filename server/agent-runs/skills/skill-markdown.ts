import type { Skill } from "@/server/agent-template";

/**
 * SKILL.md: YAML frontmatter (`name`, `description`, `disable-model-invocation`), then the body.
 * The description is written as a JSON string, which is a valid YAML double-quoted scalar
 * whatever it holds (colons, quotes, newlines, `---`); the name is kebab-case by validation.
 */
export function skillMarkdown(
  skill: Pick<Skill, "name" | "description" | "body" | "disable_model_invocation">,
): string {
  return [
    "---",
    `name: ${skill.name}`,
    `description: ${JSON.stringify(skill.description)}`,
    `disable-model-invocation: ${skill.disable_model_invocation}`,
    "---",
    "",
    skill.body,
  ].join("\n");
}

import type { AgentTemplate } from "@/server/agent-template";
import type { RunAgent } from "../run-types";
import { PLATFORM_OPERATIONS } from "../tools/platform";
import { GETTING_STARTED_SKILL } from "./getting-started-skill";

/**
 * What a harness forces onto the template before the run. The service harness adds its
 * getting-started skill, the `read` built-in when the template has no way to read it (neither
 * `read` nor `bash`), and every platform operation the run can use (commit needs the agent's own
 * variant, so an inline template gets the others). Entries the template already has (a skill of
 * that name, a platform tool with that op) are kept as the template wrote them, so their
 * permission or render stays the author's.
 */
export function withHarnessBuiltins(template: AgentTemplate, agent: RunAgent): AgentTemplate {
  if (template.harness.kind !== "service_harness") return template;
  const ops = new Set(template.tools.flatMap((tool) => (tool.type === "platform" ? [tool.op] : [])));
  const forced = PLATFORM_OPERATIONS.filter(
    (operation) => !ops.has(operation.op) && (operation.op !== "commit_revision" || agent.references?.workflow_variant),
  ).map((operation) => ({ type: "platform" as const, op: operation.op, permission: null, render: null }));
  const hasSkill = template.skills.some((skill) => skill.name === GETTING_STARTED_SKILL.name);
  const canRead = template.tools.some(
    (tool) => tool.type === "builtin" && (tool.name === "read" || tool.name === "bash"),
  );
  const reader = canRead ? [] : [{ type: "builtin" as const, name: "read" as const, permission: null, render: null }];
  return {
    ...template,
    tools: [...template.tools, ...reader, ...forced],
    skills: hasSkill ? template.skills : [...template.skills, GETTING_STARTED_SKILL],
  };
}

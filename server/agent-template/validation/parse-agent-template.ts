import { InvalidAgentTemplateError } from "./invalid-agent-template-error";
import { validateAgentTemplate, type AgentTemplateValidation } from "./validate-agent-template";

/** validateAgentTemplate for callers that want an exception (the route wrapper maps it to a 400). */
export function parseAgentTemplate(input: unknown): Extract<AgentTemplateValidation, { ok: true }> {
  const result = validateAgentTemplate(input);
  if (!result.ok) throw new InvalidAgentTemplateError(result.errors);
  return result;
}

import { agentTemplateSchema, type AgentTemplate } from "../template";
import { dropBuiltinPermissions, storedTemplate } from "./builtin-permissions";
import { issueMessage } from "./issue-message";
import type { TemplateError } from "./template-error";
import { templateErrors } from "./template-errors";
import { templateWarnings } from "./template-warnings";

export type AgentTemplateValidation =
  | {
      ok: true;
      /** Fully defaulted, model split, builtin permissions dropped: what the runner reads. */
      template: AgentTemplate;
      /** As sent minus dropped builtin permissions: what a revision stores. */
      stored: Record<string, unknown>;
      warnings: string[];
    }
  | { ok: false; errors: TemplateError[] };

/** Validates an agent template (embeds already resolved) and reports every problem at once. */
export function validateAgentTemplate(input: unknown): AgentTemplateValidation {
  const parsed = agentTemplateSchema.safeParse(input, { error: issueMessage });
  if (!parsed.success) return { ok: false, errors: templateErrors(parsed.error.issues, input) };
  return {
    ok: true,
    template: dropBuiltinPermissions(parsed.data),
    stored: storedTemplate(input),
    warnings: templateWarnings(parsed.data),
  };
}

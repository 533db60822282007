import { promptTemplateSchema } from "@/server/agent-template";
import { BadRequestError } from "@/server/core/errors";
import { renderTemplate, unsupportedTag, type TemplateFormat } from "@/server/core/render-template";
import type { z } from "zod";

export type PromptTemplate = z.output<typeof promptTemplateSchema> & { llm_config: { connection?: string } };

/**
 * The prompt of a prompt application revision (`data.parameters.prompt`), checked when the run
 * starts so that a prompt the runner cannot honour is refused before any cell runs.
 */
export function readPromptTemplate(revisionId: string, prompt: unknown): PromptTemplate {
  const parsed = promptTemplateSchema.safeParse(prompt);
  if (!parsed.success) {
    throw new BadRequestError(
      `application revision ${revisionId}: data.parameters.prompt is not a valid prompt (${parsed.error.issues[0]?.message})`,
      "invalid_prompt",
    );
  }
  if (parsed.data.template_format === "jinja2") {
    throw new BadRequestError(
      `application revision ${revisionId}: template_format jinja2 is not supported by the evaluation prompt runner; use curly ({{name}}) or fstring ({name})`,
      "unsupported_prompt",
    );
  }
  const tag = parsed.data.messages
    .map((m) => unsupportedTag(m.content, parsed.data.template_format as TemplateFormat))
    .find(Boolean);
  if (tag) {
    throw new BadRequestError(
      `application revision ${revisionId}: the prompt uses ${tag}; mustache sections, partials and comments are not rendered, only {{name}} placeholders`,
      "unsupported_prompt",
    );
  }
  if (parsed.data.llm_config.response_format) {
    throw new BadRequestError(
      `application revision ${revisionId}: llm_config.response_format is not supported by the evaluation prompt runner; remove it`,
      "unsupported_prompt",
    );
  }
  const connection = (prompt as { llm_config?: { connection?: unknown } }).llm_config?.connection;
  return {
    ...parsed.data,
    llm_config: { ...parsed.data.llm_config, ...(typeof connection === "string" ? { connection } : {}) },
  };
}

/** Fills the prompt's placeholders from the testcase's columns; a missing column is an error naming it. */
export function renderPrompt(
  template: PromptTemplate,
  columns: Record<string, unknown>,
): { role: string; content: string }[] {
  const format = template.template_format as TemplateFormat;
  return template.messages.map((m) => ({
    role: m.role === "developer" ? "system" : m.role,
    content: renderTemplate(m.content, format, columns, (problem) =>
      problem.kind === "missing"
        ? new PromptInputError(
            `the prompt uses ${problem.placeholder} but the testcase has no column "${problem.path}"`,
          )
        : new PromptInputError(`the prompt uses ${problem.tag}, which is not rendered; only placeholders are`),
    ),
  }));
}

export class PromptInputError extends Error {}

import { z } from "zod";
import type { Principal } from "@/server/auth";
import { BadRequestError, isAppError } from "@/server/core/errors";
import { renderTemplate, type TemplateFormat } from "@/server/core/render-template";
import type { Executor } from "@/server/db";
import { DOMAIN_SPECS } from "@/server/domains";
import type { RunAgent, Sampling } from "@/server/agent-runs";
import type { NativeMessage } from "@/server/streams";
import { retrieveRevision, type RetrieveRefs } from "@/server/versioning";
import type { ModelName } from "./model-name";

/** `data.parameters.prompt` of an application revision, as committed (docs/openai-compatible-api.md). */
const promptSchema = z.object({
  messages: z.array(z.object({ role: z.string().min(1), content: z.string() })),
  llm_config: z.object({
    model: z.string().min(1),
    temperature: z.number().nullish(),
    max_tokens: z.number().int().positive().nullish(),
    top_p: z.number().nullish(),
  }),
  template_format: z.enum(["curly", "fstring"]).nullish(),
});

export interface PromptApplicationRun {
  /** The inline agent template the application runs as: its model, no tools, its system text as the whole system prompt. */
  template: Record<string, unknown>;
  /** The application's messages after its leading system ones, placeholders filled; the request's follow. */
  messages: NativeMessage[];
  sampling: Sampling;
  agent: RunAgent;
}

export const variablesSchema = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .nullish()
  .describe("Values for a prompt application's {{name}} placeholders.");

/**
 * The application a `model` names, when no agent has that name: undefined when there is none
 * (the caller's 404 stands). A revision without `data.parameters.prompt` is not callable.
 */
export async function findPromptApplication(
  db: Executor,
  principal: Principal,
  name: ModelName,
  variables: Record<string, string | number | boolean>,
): Promise<PromptApplicationRun | undefined> {
  const refs =
    "environment" in name
      ? { artifact: { slug: name.agent }, environment: { slug: name.environment } }
      : "variant" in name
        ? { artifact: { slug: name.agent }, variant: { slug: name.variant }, revision: { version: name.version } }
        : { artifact: { slug: name.agent } };
  try {
    return await promptApplicationRun(db, principal, refs, variables, { target: "model", variables: "variables" });
  } catch (error) {
    if (isAppError(error) && error.status === 404) return undefined;
    throw error;
  }
}

/**
 * The application revision `refs` name (retrieve's rules: 404 when there is none) as an inline
 * agent template with its placeholders filled from `variables`. `paths` name the caller's fields
 * (what named the application, where the values come from) in its refusals.
 */
export async function promptApplicationRun(
  db: Executor,
  principal: Principal,
  refs: RetrieveRefs,
  variables: Record<string, string | number | boolean>,
  paths: { target: string; variables: string },
): Promise<PromptApplicationRun> {
  const { revision } = await retrieveRevision(
    db,
    { projectId: principal.projectId, userId: principal.userId },
    DOMAIN_SPECS.applications,
    refs,
  );
  const parsed = promptSchema.safeParse((revision.data?.parameters as Record<string, unknown> | undefined)?.prompt);
  if (!parsed.success) {
    throw new BadRequestError(
      `application "${revision.artifactSlug}" has no runnable data.parameters.prompt (messages and llm_config.model); it cannot be run as a prompt application`,
      "not_a_prompt_application",
      [{ path: paths.target, message: "not a prompt application" }],
    );
  }
  const prompt = parsed.data;
  const filled = prompt.messages.map((message, index) => ({
    role: message.role,
    text: fill(
      message.content,
      prompt.template_format ?? "curly",
      variables,
      `${revision.artifactSlug} prompt.messages[${index}]`,
      paths.variables,
    ),
  }));
  const leading = filled.findIndex((message) => message.role !== "system");
  const system = (leading < 0 ? filled : filled.slice(0, leading)).map((message) => message.text).join("\n\n");
  const rest = leading < 0 ? [] : filled.slice(leading);
  const { temperature, max_tokens, top_p } = prompt.llm_config;
  return {
    template: {
      instructions: { agents_md: "" },
      llm: { model: prompt.llm_config.model },
      tools: [],
      harness: { kind: "core_harness", extras: { system } },
    },
    messages: rest.map((message) => ({
      role: message.role === "developer" ? "system" : message.role,
      content: message.text ? [{ type: "text", text: message.text }] : [],
    })),
    sampling: {
      ...(temperature != null && { temperature }),
      ...(top_p != null && { topP: top_p }),
      ...(max_tokens != null && { maxOutputTokens: max_tokens }),
    },
    agent: {
      name: revision.artifactSlug,
      references: {
        application: { id: revision.artifactId, slug: revision.artifactSlug },
        application_variant: { id: revision.variantId, slug: revision.variantSlug },
        application_revision: { id: revision.id, slug: revision.slug, version: String(revision.version) },
      },
    },
  };
}

function fill(
  text: string,
  format: TemplateFormat,
  variables: Record<string, string | number | boolean>,
  where: string,
  field: string,
): string {
  return renderTemplate(text, format, variables, (problem) =>
    problem.kind === "missing"
      ? new BadRequestError(
          `${where} uses ${problem.placeholder}; send its value in ${field}.${problem.path}`,
          "missing_variable",
          [{ path: `${field}.${problem.path}`, message: "missing" }],
        )
      : new BadRequestError(
          `${where} uses ${problem.tag}; mustache sections, partials and comments are not rendered, only {{name}} placeholders`,
          "unsupported_prompt",
        ),
  );
}

import { z } from "zod";
import { renderTemplate, type TemplateFormat } from "@/server/core/render-template";
import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { DOMAIN_SPECS } from "@/server/domains";
import type { ExposedTarget } from "@/server/exposure";
import { retrieveRevision, type Scope } from "@/server/versioning";

/** `data.parameters.prompt` as the OpenAI door runs it: messages in the template's placeholder format. */
const promptSchema = z.object({
  messages: z.array(z.object({ role: z.string().min(1), content: z.string() })),
  template_format: z.enum(["curly", "fstring"]).nullish(),
});
type Prompt = z.infer<typeof promptSchema>;

export interface PromptMessage {
  role: "user" | "assistant";
  content: { type: "text"; text: string };
}

// A prompt has at most this many distinct placeholders; past it the rest are not offered as arguments.
const MAX_ARGUMENTS = 100;

/** The deployed revision's prompt; a revision without one is not offered (it cannot be rendered). */
export async function deployedPrompt(db: Executor, scope: Scope, target: ExposedTarget): Promise<Prompt | undefined> {
  const { revision } = await retrieveRevision(db, scope, DOMAIN_SPECS.applications, {
    revision: { id: target.revisionId },
  });
  const parsed = promptSchema.safeParse((revision.data?.parameters as Record<string, unknown> | undefined)?.prompt);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The prompt's placeholders, in order of first use: found by rendering with the service's one
 * renderer (server/core/render-template.ts), each missing one filled and the render tried again,
 * so what counts as a placeholder is exactly what the renderer fills.
 */
export function promptArguments(prompt: Prompt): string[] {
  const names: string[] = [];
  const context: Record<string, unknown> = {};
  const format: TemplateFormat = prompt.template_format ?? "curly";
  for (const message of prompt.messages) {
    for (let tries = 0; tries <= MAX_ARGUMENTS && names.length < MAX_ARGUMENTS; tries++) {
      let missing: string | undefined;
      try {
        renderTemplate(message.content, format, context, (problem) => {
          if (problem.kind === "missing") missing = problem.path;
          return new Error("unrendered");
        });
        break;
      } catch {
        if (!missing || names.includes(missing)) break;
        names.push(missing);
        setPath(context, missing, "");
      }
    }
  }
  return names;
}

/**
 * The prompt's messages rendered with `args` (a missing one: 400 `missing_variable` naming it).
 * MCP prompts carry only user and assistant messages: system and developer text comes first as
 * user messages.
 */
export function renderPrompt(prompt: Prompt, args: Record<string, string>, name: string): PromptMessage[] {
  const context: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(args)) setPath(context, path, value);
  return prompt.messages.map((message, index) => ({
    role: message.role === "assistant" ? "assistant" : "user",
    content: {
      type: "text",
      text: renderTemplate(message.content, prompt.template_format ?? "curly", context, (problem) =>
        problem.kind === "missing"
          ? new BadRequestError(
              `prompt ${name} messages[${index}] uses ${problem.placeholder}; send the argument "${problem.path}"`,
              "missing_variable",
              [{ path: `arguments.${problem.path}`, message: "missing" }],
            )
          : new BadRequestError(
              `prompt ${name} messages[${index}] holds ${problem.tag}, a tag the renderer does not fill`,
              "unsupported_prompt",
            ),
      ),
    },
  }));
}

function setPath(context: Record<string, unknown>, path: string, value: string): void {
  const steps = path.split(".");
  let node = context;
  for (const step of steps.slice(0, -1)) {
    if (typeof node[step] !== "object" || node[step] === null) node[step] = {};
    node = node[step] as Record<string, unknown>;
  }
  node[steps.at(-1)!] = value;
}

import { wrapLanguageModel, type LanguageModelMiddleware } from "ai";
import type { Redactor } from "@/server/redaction";

type WrappableModel = Parameters<typeof wrapLanguageModel>[0]["model"];
type Prompt = Parameters<NonNullable<LanguageModelMiddleware["transformParams"]>>[0]["params"]["prompt"];
type Part = Exclude<Prompt[number]["content"], string>[number];

/**
 * The model with every prompt redacted right before the provider call: the system prompt, the
 * messages' text and reasoning, tool call arguments and tool results. It sits on the model
 * itself, so each step of a multi-step turn (whose tool results the SDK adds between calls) and
 * every caller (turns, prompt evaluations, judges) is covered.
 */
export function withInputRedaction(model: WrappableModel, redactor: Redactor): WrappableModel {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      transformParams: async ({ params }) => ({ ...params, prompt: redactPrompt(params.prompt, redactor) }),
    },
  });
}

export function redactPrompt(prompt: Prompt, redactor: Redactor): Prompt {
  return prompt.map((message) =>
    message.role === "system"
      ? { ...message, content: redactor.text(message.content) }
      : ({ ...message, content: message.content.map((part: Part) => redactPart(part, redactor)) } as typeof message),
  );
}

function redactPart(part: Part, redactor: Redactor): Part {
  switch (part.type) {
    case "text":
    case "reasoning":
      return { ...part, text: redactor.text(part.text) };
    case "tool-call":
      return { ...part, input: redactor.value(part.input) };
    case "tool-result":
      return {
        ...part,
        output: "value" in part.output ? { ...part.output, value: redactor.value(part.output.value) } : part.output,
      } as Part;
    default:
      return part;
  }
}

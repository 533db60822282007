import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";
import type { ContentBlock, NativeMessage } from "@/server/streams";
import { imageBlock, parseArguments } from "./content-parts";

const textPart = z.object({ type: z.enum(["input_text", "output_text"]), text: z.string() }).loose();
const imagePart = z.object({
  type: z.literal("input_image"),
  image_url: z.string().min(1),
  detail: z.string().nullish(),
});
const refusalPart = z.object({ type: z.literal("refusal"), refusal: z.string() });
const itemFields = { id: z.string().nullish(), status: z.string().nullish() };

const messageItem = z.object({
  type: z.literal("message").optional(),
  role: z.enum(["user", "assistant", "system", "developer"]),
  content: z.union([z.string(), z.array(z.discriminatedUnion("type", [textPart, imagePart, refusalPart]))]),
  ...itemFields,
});
const functionCallItem = z.object({
  type: z.literal("function_call"),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
  ...itemFields,
});
const functionCallOutputItem = z.object({
  type: z.literal("function_call_output"),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(textPart)]),
  ...itemFields,
});
/** Reasoning items a client replays are the provider's; the agent's own reasoning stays in its trace. */
const reasoningItem = z.object({ type: z.literal("reasoning") }).loose();

/** Stored items by id: this door keeps whole conversations (previous_response_id), not items. */
const itemReference = z.object({ type: z.literal("item_reference"), id: z.string() });

/** `input` of `POST /v1/responses`: a string (one user message) or input items. */
export const responsesInputSchema = z.union([
  z.string().min(1),
  z
    .array(z.union([functionCallItem, functionCallOutputItem, reasoningItem, itemReference, messageItem]))
    .min(1)
    .max(10_000),
]);

export type ResponsesInput = z.output<typeof responsesInputSchema>;

/** Input items to the agent's input messages (function calls and their outputs as tool blocks). */
export function responsesToNative(input: ResponsesInput): NativeMessage[] {
  if (typeof input === "string") return [{ role: "user", content: [{ type: "text", text: input }] }];
  const out: NativeMessage[] = [];
  input.forEach((item, index) => {
    const param = `input[${index}]`;
    if (item.type === "reasoning") return;
    if (item.type === "item_reference") {
      throw new BadRequestError(
        `${param}: item_reference is not served (items are not stored one by one); send the item itself, or continue with previous_response_id (the AI SDK sends items when its openai provider option store is false)`,
        "item_reference_not_supported",
        [{ path: param, message: "item_reference" }],
      );
    }
    if (item.type === "function_call") {
      out.push({
        role: "assistant",
        content: [
          {
            type: "tool_call",
            toolCallId: item.call_id,
            toolName: item.name,
            input: parseArguments(item.arguments, `${param}.arguments`),
          },
        ],
      });
    } else if (item.type === "function_call_output") {
      const output = typeof item.output === "string" ? item.output : item.output.map((part) => part.text).join("");
      out.push({ role: "tool", content: [{ type: "tool_result", toolCallId: item.call_id, output }] });
    } else {
      const role = item.role === "developer" ? "system" : item.role;
      const content: ContentBlock[] =
        typeof item.content === "string"
          ? [{ type: "text", text: item.content }]
          : item.content.flatMap((part, p): ContentBlock[] => {
              if (part.type === "input_image") return [imageBlock(part.image_url, `${param}.content[${p}].image_url`)];
              if (part.type === "refusal") return [];
              return [{ type: "text", text: part.text }];
            });
      out.push({ role, content });
    }
  });
  return out;
}

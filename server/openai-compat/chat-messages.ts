import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";
import type { ContentBlock, NativeMessage } from "@/server/streams";
import { imageBlock, parseArguments } from "./content-parts";

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const imagePart = z.object({
  type: z.literal("image_url"),
  image_url: z.object({ url: z.string().min(1), detail: z.string().nullish() }),
});
const refusalPart = z.object({ type: z.literal("refusal"), refusal: z.string() });
const toolCall = z.object({
  id: z.string().min(1),
  type: z.literal("function").default("function"),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

/** One message of a chat-completions request, as OpenAI documents it (the roles a chat sends). */
export const chatMessageSchema = z.discriminatedUnion("role", [
  z.object({
    role: z.enum(["system", "developer"]),
    content: z.union([z.string(), z.array(textPart)]),
    name: z.string().nullish(),
  }),
  z.object({
    role: z.literal("user"),
    content: z.union([z.string(), z.array(z.discriminatedUnion("type", [textPart, imagePart]))]),
    name: z.string().nullish(),
  }),
  z.object({
    role: z.literal("assistant"),
    content: z.union([z.string(), z.array(z.discriminatedUnion("type", [textPart, refusalPart]))]).nullish(),
    tool_calls: z.array(toolCall).nullish(),
    refusal: z.string().nullish(),
    name: z.string().nullish(),
  }),
  z.object({
    role: z.literal("tool"),
    tool_call_id: z.string().min(1),
    content: z.union([z.string(), z.array(textPart)]),
  }),
]);

export type ChatMessage = z.output<typeof chatMessageSchema>;

/**
 * Chat messages to the agent's input messages: text and images as content blocks, an assistant's
 * `tool_calls` as tool_call blocks, a `tool` message as the tool_result of the call it answers.
 */
export function chatToNative(messages: ChatMessage[]): NativeMessage[] {
  return messages.map((message, index) => {
    switch (message.role) {
      case "system":
      case "developer":
        return { role: "system", content: textBlocks(message.content) };
      case "user":
        return {
          role: "user",
          content:
            typeof message.content === "string"
              ? textBlocks(message.content)
              : message.content.map((part, p) =>
                  part.type === "text"
                    ? { type: "text", text: part.text }
                    : imageBlock(part.image_url.url, `messages[${index}].content[${p}].image_url.url`),
                ),
        };
      case "assistant": {
        const content: ContentBlock[] =
          typeof message.content === "string" || !message.content
            ? textBlocks(message.content ?? "")
            : message.content.flatMap((part) => (part.type === "text" ? textBlocks(part.text) : []));
        (message.tool_calls ?? []).forEach((call, c) => {
          content.push({
            type: "tool_call",
            toolCallId: call.id,
            toolName: call.function.name,
            input: parseArguments(call.function.arguments, `messages[${index}].tool_calls[${c}].function.arguments`),
          });
        });
        return { role: "assistant", content };
      }
      case "tool":
        return {
          role: "tool",
          content: [{ type: "tool_result", toolCallId: message.tool_call_id, output: joinText(message.content) }],
        };
    }
  });
}

function textBlocks(content: string | Array<{ text: string }>): ContentBlock[] {
  const text = joinText(content);
  return text ? [{ type: "text", text }] : [];
}

function joinText(content: string | Array<{ text: string }>): string {
  return typeof content === "string" ? content : content.map((part) => part.text).join("");
}

/** A conversation must give the agent something to answer. */
export function requireInput(messages: NativeMessage[], param: string): void {
  if (!messages.some((message) => message.role !== "system" && message.content.length)) {
    throw new BadRequestError(
      `${param} holds no user, assistant or tool content; send at least one user message`,
      "no_messages",
      [{ path: param, message: "no content" }],
    );
  }
}

import { z } from "zod";
import type { JsonSchema } from "./json-schema";
import { toCatalogJsonSchema } from "./to-catalog-json-schema";

export const MESSAGE_ROLES = ["developer", "system", "user", "assistant", "tool", "function"] as const;

const payloadFields = {
  data: z.string().optional().describe("Base64 payload."),
  mimeType: z.string().optional().describe("Media type."),
  uri: z.string().optional().describe("Location of the payload."),
};

/** An image or resource carries its bytes inline (`data`) or by location (`uri`). */
const payloadBlock = (type: "image" | "resource") =>
  z
    .strictObject({ type: z.literal(type), ...payloadFields })
    .refine((block) => block.data !== undefined || block.uri !== undefined, "needs data or uri")
    .meta({ anyOf: [{ required: ["data"] }, { required: ["uri"] }] });

const contentBlockSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text"), text: z.string().describe("The text.") }),
  payloadBlock("image"),
  payloadBlock("resource"),
  z.strictObject({
    type: z.literal("tool_call"),
    toolCallId: z.string().describe("Ties the call to its result."),
    toolName: z.string().describe("Tool name."),
    input: z.unknown().optional().describe("Arguments the model produced."),
  }),
  z.strictObject({
    type: z.literal("tool_result"),
    toolCallId: z.string().describe("Ties the result to its call."),
    toolName: z.string().optional().describe("Tool name."),
    output: z.unknown().optional().describe("What the tool returned."),
    isError: z.boolean().optional().describe("True when the call failed."),
    approved: z.boolean().optional().describe("Approval decision, when the result answers an approval request."),
    interactionToken: z.string().optional().describe("Token of the interaction the approval answers."),
  }),
]);

/**
 * A native message. Besides role and content it documents the optional fields of the batch
 * response's tool messages, so a client can send a previous turn's output back as history.
 */
const messageSchema = z.strictObject({
  role: z.enum(MESSAGE_ROLES).describe("Author of the message."),
  content: z
    .union([z.string(), z.array(contentBlockSchema)])
    .default("")
    .describe("A string (one text block) or an array of content blocks."),
  tool_call_id: z.string().optional().describe("Batch output: id of the tool call this message reports."),
  tool_name: z.string().optional().describe("Batch output: tool name."),
  input: z.unknown().optional().describe("Batch output: the tool call's arguments."),
  is_error: z.boolean().optional().describe("Batch output: true when the tool call failed."),
});

const messagesSchema = z
  .array(messageSchema)
  .meta({ title: "Messages", description: "Chat messages (catalog type messages), oldest first." });

let generated: JsonSchema | undefined;

/** JSON Schema of the `messages` catalog type; a fresh copy per call. */
export function messagesCatalogType(): JsonSchema {
  generated ??= toCatalogJsonSchema(messagesSchema);
  return structuredClone(generated);
}

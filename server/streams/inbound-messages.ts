import { BadRequestError } from "@/server/core/errors";
import type { ContentBlock, NativeMessage } from "./content-block";
import type { MessagesFormat } from "./negotiate";

type Json = Record<string, unknown>;

const BLOCK_TYPES = new Set(["text", "image", "resource", "tool_call", "tool_result"]);
const SNAKE_KEYS: Record<string, string> = {
  mime_type: "mimeType",
  tool_call_id: "toolCallId",
  tool_name: "toolName",
  is_error: "isError",
  interaction_token: "interactionToken",
};

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `data.inputs.messages` in either format, as native messages; messages without a role are dropped. */
export function readInboundMessages(raw: unknown[], format: MessagesFormat): NativeMessage[] {
  const out: NativeMessage[] = [];
  raw.forEach((message, index) => {
    if (!isObject(message) || typeof message.role !== "string" || !message.role) return;
    const converted =
      format === "ui_sdk" && Array.isArray(message.parts) && message.parts.length > 0
        ? fromUiMessage(message)
        : { role: message.role, content: nativeContent(message.content, `data.inputs.messages[${index}].content`) };
    out.push(converted);
  });
  return out;
}

function nativeContent(content: unknown, path: string): ContentBlock[] {
  if (content === undefined || content === null) return [];
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  if (!Array.isArray(content))
    throw new BadRequestError(`${path} is a string or an array of content blocks`, "invalid_messages");
  return content.map((block, i) => nativeBlock(block, `${path}[${i}]`));
}

function nativeBlock(block: unknown, path: string): ContentBlock {
  if (!isObject(block) || typeof block.type !== "string" || !BLOCK_TYPES.has(block.type)) {
    throw new BadRequestError(
      `${path}.type must be one of text, image, resource, tool_call, tool_result`,
      "invalid_messages",
    );
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(block)) {
    if (value === null || value === undefined) continue;
    out[SNAKE_KEYS[key] ?? key] = value;
  }
  if ((out.type === "tool_call" || out.type === "tool_result") && typeof out.toolCallId !== "string") {
    throw new BadRequestError(`${path}.toolCallId is required on a ${out.type as string} block`, "invalid_messages");
  }
  return out as unknown as ContentBlock;
}

/** the interface contract "UI SDK message": parts and tool states to content blocks. */
function fromUiMessage(message: Json): NativeMessage {
  const content: ContentBlock[] = [];
  (message.parts as unknown[]).forEach((part) => {
    if (!isObject(part) || typeof part.type !== "string") return;
    const type = part.type;
    if (type === "text" && typeof part.text === "string") content.push({ type: "text", text: part.text });
    else if (type === "file") content.push(fileBlock(part));
    else if (
      type === "dynamic-tool" ||
      (type.startsWith("tool-") && typeof part.toolCallId === "string" && !TOOL_EVENT_PARTS.has(type))
    ) {
      content.push(...toolPart(part, type === "dynamic-tool" ? String(part.toolName ?? "") : type.slice(5)));
    } else if (type === "tool-output-available" || type === "tool-output-error" || type === "tool-output-denied") {
      content.push(eventResult(part));
    } else if (type === "tool-approval-response" && typeof part.approvalId === "string") {
      content.push({
        type: "tool_result",
        toolCallId: String(part.toolCallId ?? part.approvalId),
        approved: part.approved === true,
        interactionToken: part.approvalId,
        output: { approved: part.approved === true, interactionToken: part.approvalId },
      });
    }
  });
  return { role: String(message.role), content };
}

const TOOL_EVENT_PARTS = new Set([
  "tool-output-available",
  "tool-output-error",
  "tool-output-denied",
  "tool-approval-response",
  "tool-approval-request",
  "tool-input-start",
  "tool-input-delta",
  "tool-input-available",
]);

function fileBlock(part: Json): ContentBlock {
  const mediaType = typeof part.mediaType === "string" ? part.mediaType : "application/octet-stream";
  const url = typeof part.url === "string" ? part.url : "";
  const block: ContentBlock = { type: mediaType.startsWith("image/") ? "image" : "resource", mimeType: mediaType };
  const inline = /^data:[^;,]*;base64,(.*)$/s.exec(url);
  if (inline) block.data = inline[1];
  else if (url) block.uri = url;
  return block;
}

function toolPart(part: Json, toolName: string): ContentBlock[] {
  const toolCallId = part.toolCallId as string;
  const call: ContentBlock = { type: "tool_call", toolCallId, toolName, input: part.input ?? {} };
  const approval = isObject(part.approval) ? part.approval : undefined;
  switch (part.state) {
    case "output-available":
      return [call, { type: "tool_result", toolCallId, toolName, output: part.output ?? null, isError: false }];
    case "output-error":
      return [call, { type: "tool_result", toolCallId, toolName, output: part.errorText ?? "", isError: true }];
    case "output-denied":
      return [call, { type: "tool_result", toolCallId, toolName, approved: false, output: { approved: false } }];
    case "approval-responded": {
      const approved = approval?.approved === true;
      const token = typeof approval?.id === "string" ? approval.id : undefined;
      const output = token ? { approved, interactionToken: token } : { approved };
      return [
        call,
        { type: "tool_result", toolCallId, toolName, approved, ...(token ? { interactionToken: token } : {}), output },
      ];
    }
    default:
      return [call];
  }
}

function eventResult(part: Json): ContentBlock {
  const toolCallId = String(part.toolCallId ?? "");
  if (part.type === "tool-output-error")
    return { type: "tool_result", toolCallId, output: part.errorText ?? "", isError: true };
  if (part.type === "tool-output-denied")
    return { type: "tool_result", toolCallId, approved: false, output: { approved: false } };
  return { type: "tool_result", toolCallId, output: part.output ?? null, isError: false };
}

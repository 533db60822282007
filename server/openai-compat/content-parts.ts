import { BadRequestError } from "@/server/core/errors";
import type { ContentBlock } from "@/server/streams";

/** An image by `data:` URL (inlined) or by http(s) URL (fetched by the provider). */
export function imageBlock(url: string, param: string): ContentBlock {
  const inline = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (inline) return { type: "image", mimeType: inline[1], data: inline[2] };
  if (/^https?:\/\//i.test(url)) return { type: "image", uri: url };
  throw new BadRequestError(`${param} is a data: URL (base64) or an http(s) URL`, "invalid_image", [
    { path: param, message: "not an image URL" },
  ]);
}

/** A tool call's `arguments` string, which OpenAI sends as JSON text. */
export function parseArguments(raw: string, param: string): unknown {
  if (!raw.trim()) return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new BadRequestError(`${param} is not valid JSON`, "invalid_tool_arguments", [
      { path: param, message: "not JSON" },
    ]);
  }
}

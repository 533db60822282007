import { BadRequestError } from "@/server/core/errors";
import { NotAcceptableError } from "./not-acceptable-error";

export type Transport = "batch" | "sse" | "ndjson";
export type MessagesFormat = "native" | "ui_sdk";

export const MESSAGES_FORMAT_HEADER = "x-svc-messages-format";

const MEDIA_TYPES: Record<string, Transport> = {
  "application/json": "batch",
  "text/event-stream": "sse",
  "application/x-ndjson": "ndjson",
  "application/jsonl": "ndjson",
};

/**
 * `Accept` selects the transport: the first listed media type we serve wins; a wildcard (or no
 * header) means "the natural one": batch, or SSE when `flags.stream` asks for a stream.
 */
export function negotiateTransport(accept: string | null, wantsStream: boolean): Transport {
  const natural: Transport = wantsStream ? "sse" : "batch";
  if (!accept || !accept.trim()) return natural;
  const ranges = accept.split(",").map((range) => range.split(";")[0].trim().toLowerCase());
  for (const range of ranges) {
    if (MEDIA_TYPES[range]) return MEDIA_TYPES[range];
    if (range === "*/*" || range === "application/*" || range === "text/*") return natural;
  }
  throw new NotAcceptableError(
    `Accept "${accept}" names no transport this endpoint serves; use application/json, text/event-stream, application/x-ndjson or application/jsonl`,
  );
}

export function negotiateFormat(header: string | null): MessagesFormat {
  if (header === null || header.trim() === "" || header.trim() === "native") return "native";
  if (header.trim() === "ui_sdk") return "ui_sdk";
  throw new BadRequestError(
    `${MESSAGES_FORMAT_HEADER} "${header}" is not a messages format; use native or ui_sdk`,
    "invalid_messages_format",
  );
}

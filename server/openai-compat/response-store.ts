import { and, eq } from "drizzle-orm";
import { AppError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { openaiResponses } from "@/server/db/schema";
import { redactForStorage } from "@/server/redaction";
import type { NativeMessage } from "@/server/streams";

const WIRE_ID = /^resp_([0-9a-f]{32})$/;

/** `resp_` and the row's UUIDv7 without dashes, as OpenAI's ids look. */
export function responseWireId(id: string): string {
  return `resp_${id.replaceAll("-", "")}`;
}

export interface StoredResponse {
  sessionId: string;
  messages: NativeMessage[];
}

/** The conversation a `previous_response_id` continues, in the caller's project only. */
export async function loadPreviousResponse(db: Executor, projectId: string, wireId: string): Promise<StoredResponse> {
  const hex = WIRE_ID.exec(wireId)?.[1];
  const [row] = hex
    ? await db
        .select({ sessionId: openaiResponses.sessionId, messages: openaiResponses.messages })
        .from(openaiResponses)
        .where(
          and(
            eq(openaiResponses.projectId, projectId),
            eq(openaiResponses.id, hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5")),
          ),
        )
    : [];
  if (!row) {
    throw new AppError(
      404,
      "previous_response_not_found",
      `previous_response_id "${wireId}" names no response of this project`,
      [{ path: "previous_response_id", message: "not found" }],
    );
  }
  return { sessionId: row.sessionId, messages: row.messages as NativeMessage[] };
}

/**
 * Stores the conversation as the project's redaction rules leave it: a continuation replays these
 * messages to the model, so a value kept here would reach the model and every later turn's record.
 */
export async function storeResponse(
  db: Executor,
  row: { id: string; projectId: string; sessionId: string; model: string; messages: NativeMessage[] },
): Promise<void> {
  await db
    .insert(openaiResponses)
    .values({ ...row, messages: await redactForStorage(db, row.projectId, row.messages) });
}

import { z } from "zod";
import { RUN_HEADERS, type HeaderDoc } from "@/server/core/errors";

const text = (description: string): HeaderDoc => ({ description, schema: z.string() });

/**
 * What an agent turn's answer says about itself in headers (`turnResponse`, the OpenAI door, a
 * background run's 202), as the OpenAPI document gives them on every route that runs one.
 */
export const TURN_HEADERS: Record<string, HeaderDoc> = {
  ...RUN_HEADERS,
  "X-Svc-Version": text("The version of the answer's shape (the batch envelope's version)"),
  "X-Svc-Span-Id": text("The run's invoke_agent span"),
  baggage: text("W3C baggage carrying the session: ag.session.id=<session id>"),
  "X-Svc-Continues-Run-Id": text("The paused run this run continues"),
  "X-Svc-Messages-Format": text("The messages format of the frames"),
  "X-Svc-Messages-Version": text("The version of that format"),
  "X-Ui-Message-Stream": text("Set on an AI SDK UI Message Stream"),
  "X-Vercel-Ai-Ui-Message-Stream": text("The same, under the AI SDK's own name"),
};

import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";

const DAY_MS = 86_400_000;

/** The window and limit of the sessions and users lists (the last 7 days by default). */
export const conversationsQuerySchema = z.strictObject({
  oldest: z.iso.datetime({ offset: true }).optional().describe("Start of the window (runs that started from then on)"),
  newest: z.iso.datetime({ offset: true }).optional().describe("End of the window (exclusive); default now"),
  user: z.string().min(1).max(500).optional().describe("Only the runs of this user id (sessions)"),
  limit: z.number().int().min(1).max(500).default(50).describe("At most this many, the most recent first"),
});
export type ConversationsQuery = z.input<typeof conversationsQuerySchema>;

/** [oldest, newest) of a request: the 7 days before now unless given. */
export function conversationsWindow(q: ConversationsQuery, now: Date): { oldest: Date; newest: Date } {
  const newest = q.newest ? new Date(q.newest) : now;
  const oldest = q.oldest ? new Date(q.oldest) : new Date(newest.getTime() - 7 * DAY_MS);
  if (!(oldest < newest)) throw new BadRequestError("oldest must be before newest.", "bad_window");
  return { oldest, newest };
}

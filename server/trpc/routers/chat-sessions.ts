import { z } from "zod";
import {
  findChatSession,
  listChatSessions,
  saveChatSession,
  saveChatSessionSchema,
  sessionIdSchema,
} from "@/server/chat-sessions";
import { toIso } from "@/server/core/time";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const summary = (row: {
  id: string;
  agentId: string;
  variantId: string | null;
  title: string;
  messageCount: number;
  createdAt: Date;
  updatedAt: Date;
}) => ({
  id: row.id,
  agentId: row.agentId,
  variantId: row.variantId,
  title: row.title,
  messageCount: row.messageCount,
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
});

/** The playground's chat sessions per agent (server/chat-sessions). */
export const chatSessionsRouter = createTRPCRouter({
  list: projectProcedure
    .input(z.strictObject({ agentId: z.string().uuid() }))
    .query(async ({ ctx, input }) =>
      (await listChatSessions(ctx.app.db, ctx.principal.projectId, input.agentId)).map(summary),
    ),

  /** Null for a session the playground never stored (a run made over the API). */
  get: projectProcedure.input(z.strictObject({ id: sessionIdSchema })).query(async ({ ctx, input }) => {
    const row = await findChatSession(ctx.app.db, ctx.principal.projectId, input.id);
    return row ? { ...summary(row), messages: row.messages as unknown[] } : null;
  }),

  /** After each turn; members only, like running the agent. */
  save: memberProcedure
    .input(saveChatSessionSchema)
    .mutation(async ({ ctx, input }) => summary(await saveChatSession(ctx.app.db, scopeOf(ctx), input))),
});

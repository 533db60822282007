import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { listSessions, listUsers } from "./lists";
import { conversationsQuerySchema } from "./request";
import { sessionTurns } from "./session-turns";
import { sessionsListWire, sessionTurnsWire, usersListWire } from "./wire";

const TAG = "analytics";

export const conversationRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/analytics/sessions",
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    summary: "Sessions (runs sharing a session id) active in a window, with turns, cost, latency, errors and scores",
    body: conversationsQuerySchema,
    response: sessionsListWire,
    errors: ["bad_window"],
    handler: ({ ctx, body }) => listSessions(ctx.app.db, ctx.principal.projectId, body, ctx.app.now()),
  }),
  defineRoute({
    method: "GET",
    path: "/api/analytics/sessions/{session_id}",
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    summary: "A session's turns (its runs in order), each with its cost, latency, error and scores",
    params: z.object({ session_id: z.string().min(1).max(500) }),
    response: sessionTurnsWire,
    errors: ["session_not_found"],
    handler: async ({ ctx, params }) => {
      const turns = await sessionTurns(ctx.app.db, ctx.principal.projectId, params.session_id);
      return { count: turns.length, session_id: params.session_id, turns };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/analytics/users",
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    summary: "Users (the user id runs carry) active in a window, with sessions, runs, cost, latency, errors and scores",
    body: conversationsQuerySchema,
    response: usersListWire,
    errors: ["bad_window"],
    handler: ({ ctx, body }) => listUsers(ctx.app.db, ctx.principal.projectId, body, ctx.app.now()),
  }),
];

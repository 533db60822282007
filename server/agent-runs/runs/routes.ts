import { z } from "zod";
import { NotFoundError } from "@/server/core/errors";
import { defineRoute } from "@/server/http/route";
import { TURN_HEADERS } from "@/server/streams";
import { SESSION_ID } from "../invoke/invoke-request";
import { cancelRun } from "./cancel-run";
import { readRunEvents, findAgentRunSoon, listRuns } from "./run-queries";
import { RUN_ORIGINS, RUN_STATUSES } from "./run-store";
import { resumeChatResponse, runEventsResponse } from "./replay-run";
import { runDetail, runDetailSchema, runListSchema, runToWire, runWireSchema } from "./wire";

const TAG = "agent";
const runParams = z.strictObject({ id: z.string().uuid("id is a run id (a UUID)") });
const chatParams = z.strictObject({
  session_id: z.string().regex(SESSION_ID, "session_id is 1 to 128 of A-Z a-z 0-9 . _ : -"),
});
/** A comma-separated list of values of one set (`?status=running,paused`). */
const listOf = <T extends string>(values: readonly T[]) =>
  z
    .string()
    .transform((v) => v.split(",").map((s) => s.trim()))
    .pipe(z.array(z.enum(values as [T, ...T[]])));
const chatResume = {
  description:
    "204 when the session has no running turn; else the running turn's UI Message Stream (text/event-stream), replayed from its start and followed live, ending with data: [DONE]",
  contentTypes: ["text/event-stream"],
};

const noRunningTurn = { 204: { description: "The session has no running turn" } };

/** Runs: the record of every turn, its event log, its cancel and its resume (server/agent-runs/runs). */
export const runRoutes = [
  defineRoute({
    method: "GET",
    path: "/services/agent/v0/runs",
    auth: "api_key",
    keyScope: "run",
    tag: TAG,
    summary:
      "List runs, newest first: top-level runs unless ?parent_run_id= (a run's nested runs) or ?include_nested=true; ?session_id=, ?agent_id= (its draft chats' runs included), ?status=running,paused, ?origin=invoke,playground,openai,nested, ?limit=, ?before=<run id>",
    query: z.strictObject({
      session_id: z.string().regex(SESSION_ID).optional(),
      agent_id: z.string().uuid().optional(),
      status: listOf(RUN_STATUSES).optional(),
      origin: listOf(RUN_ORIGINS).optional(),
      parent_run_id: z.string().uuid().optional(),
      include_nested: z.enum(["true", "false"]).optional(),
      limit: z.coerce.number().int().min(1).max(200).default(50),
      before: z.string().uuid().optional(),
    }),
    response: runListSchema,
    handler: async ({ ctx, query }) => {
      const page = await listRuns(
        ctx.app.db,
        ctx.principal.projectId,
        {
          sessionId: query.session_id,
          agentId: query.agent_id,
          status: query.status,
          origin: query.origin,
          parentRunId: query.parent_run_id,
          nested: query.include_nested === "true",
        },
        { limit: query.limit, before: query.before },
      );
      return { count: page.items.length, runs: page.items.map(runToWire), ...(page.next ? { next: page.next } : {}) };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/services/agent/v0/runs/{id}",
    auth: "api_key",
    keyScope: "run",
    tag: TAG,
    summary: "One run: its record, its event log (native frames with seq) and the turn folded as batch outputs",
    params: runParams,
    response: runDetailSchema,
    errors: ["run_not_found"],
    handler: async ({ ctx, params }) => {
      const run = await findAgentRunSoon(ctx.app.db, ctx.principal.projectId, params.id);
      if (!run) throw new NotFoundError(`Run ${params.id} not found`, "run_not_found");
      return runDetail(run, await readRunEvents(ctx.app.db, run.id));
    },
  }),
  defineRoute({
    method: "GET",
    path: "/services/agent/v0/runs/{id}/events",
    auth: "api_key",
    keyScope: "run",
    tag: TAG,
    summary:
      "A run's events, replayed then followed live until it ends: SSE (id: = seq; Last-Event-ID or ?after= resumes after it), NDJSON, or batch JSON once it ends; native or ui_sdk (x-svc-messages-format)",
    params: runParams,
    query: z.strictObject({ after: z.string().optional() }),
    noJsonBody: {
      description: "The run's events as frames (SSE or NDJSON), or the invoke batch answer (application/json)",
      contentTypes: ["text/event-stream", "application/x-ndjson", "application/json"],
    },
    headers: TURN_HEADERS,
    errors: ["invalid_event_id", "invalid_messages_format", "run_not_found"],
    handler: async ({ ctx, params, query }) =>
      runEventsResponse(ctx.app, ctx.principal.projectId, params.id, ctx.request, query.after),
  }),
  defineRoute({
    method: "POST",
    path: "/services/agent/v0/runs/{id}/cancel",
    auth: "api_key",
    keyScope: "run",
    tag: TAG,
    summary:
      "Cancel a running run and its model request, wherever it runs; idempotent (an ended run is returned as it is)",
    params: runParams,
    response: runWireSchema,
    errors: ["run_not_found"],
    handler: async ({ ctx, params }) => runToWire(await cancelRun(ctx.app, ctx.principal.projectId, params.id)),
  }),
  defineRoute({
    method: "POST",
    path: "/api/playground/runs/{id}/cancel",
    auth: "session",
    tag: TAG,
    summary:
      "The playground chat's stop: cancel the running turn as the signed-in user (session cookie, same origin only)",
    params: runParams,
    response: runWireSchema,
    errors: ["run_not_found"],
    handler: async ({ ctx, params }) => runToWire(await cancelRun(ctx.app, ctx.principal.projectId, params.id)),
  }),
  defineRoute({
    method: "GET",
    path: "/services/agent/v0/invoke/{session_id}/stream",
    auth: "api_key",
    keyScope: "run",
    tag: TAG,
    summary: "The AI SDK's reconnect for a chat whose id is the session id (useChat resume: true)",
    params: chatParams,
    noJsonBody: chatResume,
    otherSuccess: noRunningTurn,
    headers: TURN_HEADERS,
    handler: async ({ ctx, params }) => resumeChatResponse(ctx.app, ctx.principal.projectId, params.session_id),
  }),
  defineRoute({
    method: "GET",
    path: "/api/playground/invoke/{session_id}/stream",
    auth: "session",
    tag: TAG,
    summary: "The playground chat's reconnect (useChat resume: true), as the signed-in user",
    params: chatParams,
    noJsonBody: chatResume,
    otherSuccess: noRunningTurn,
    headers: TURN_HEADERS,
    handler: async ({ ctx, params }) => resumeChatResponse(ctx.app, ctx.principal.projectId, params.session_id),
  }),
];

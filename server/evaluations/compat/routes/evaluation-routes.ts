import { z } from "zod";
import { one, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import {
  createSimpleEvaluation,
  deleteSimpleEvaluation,
  editSimpleEvaluation,
  getSimpleEvaluation,
  querySimpleEvaluations,
  setSimpleEvaluationClosed,
  startSimpleEvaluation,
  stopSimpleEvaluation,
} from "../simple-evaluations";
import { simpleEvaluationWire } from "../wire";
import { GRAPH_ERRORS } from "../build-steps";
import { simpleEvaluationBody, simpleEvaluationEditBody } from "../input";
import { runFlagsFilter } from "../../model/request-fields";
import { queryRoute } from "../../routes/record-routes";
import { idParams, none, oneOrNoneSchema, tag } from "../../routes/route-helpers";

const base = "/api/simple/evaluations";
const scope = (p: { projectId: string; userId: string }) => ({ projectId: p.projectId, userId: p.userId });

function lifecycle(action: "start" | "stop" | "close" | "open", summary: string) {
  return defineRoute({
    method: "POST",
    path: `${base}/{id}/${action}`,
    auth: "api_key",
    tag,
    summary,
    params: idParams,
    response: oneOrNoneSchema("evaluation", simpleEvaluationWire),
    errors: [
      "empty_testset",
      "evaluation_closed",
      "missing_reference",
      "no_evaluator_uri",
      "not_found",
      "too_many_traces",
      "unknown_evaluator",
      "unknown_revision",
      "unknown_trace",
      "unsupported_graph",
      "unsupported_live_graph",
    ],
    handler: async ({ ctx, params }) => {
      const db = ctx.app.db;
      const { projectId } = ctx.principal;
      const evaluation =
        action === "start"
          ? await startSimpleEvaluation(db, scope(ctx.principal), params.id)
          : action === "stop"
            ? await stopSimpleEvaluation(db, projectId, params.id)
            : await setSimpleEvaluationClosed(db, projectId, params.id, action === "close");
      return evaluation ? one("evaluation", evaluation) : none;
    },
  });
}

export const simpleEvaluationRoutes = [
  defineRoute({
    method: "POST",
    path: `${base}/`,
    auth: "api_key",
    tag,
    summary:
      "Create an evaluation (testset or inline testcases, application, evaluators, repeats, concurrency) and start it",
    body: simpleEvaluationBody,
    response: oneSchema("evaluation", simpleEvaluationWire),
    errors: GRAPH_ERRORS,
    handler: async ({ ctx, body }) =>
      one("evaluation", await createSimpleEvaluation(ctx.app.db, scope(ctx.principal), body.evaluation)),
  }),
  defineRoute({
    method: "GET",
    path: `${base}/{id}`,
    auth: "api_key",
    tag,
    summary: "An evaluation with its status and progress (cells done / total, per-step counts)",
    params: idParams,
    response: oneOrNoneSchema("evaluation", simpleEvaluationWire),
    handler: async ({ ctx, params }) => {
      const evaluation = await getSimpleEvaluation(ctx.app.db, ctx.principal.projectId, params.id);
      return evaluation ? one("evaluation", evaluation) : none;
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${base}/{id}`,
    auth: "api_key",
    tag,
    summary:
      "Edit an evaluation (header; with data, its steps, repeats, concurrency); a running one restarts on the new graph",
    params: idParams,
    body: simpleEvaluationEditBody,
    response: oneOrNoneSchema("evaluation", simpleEvaluationWire),
    errors: GRAPH_ERRORS,
    handler: async ({ ctx, params, body }) => {
      if (body.evaluation.id && body.evaluation.id !== params.id) return none;
      const evaluation = await editSimpleEvaluation(ctx.app.db, scope(ctx.principal), params.id, body.evaluation);
      return evaluation ? one("evaluation", evaluation) : none;
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${base}/{id}`,
    auth: "api_key",
    tag,
    summary: "Delete an evaluation with its scenarios, results, metrics and queues",
    params: idParams,
    response: z.object({ count: z.literal(1), evaluation_id: z.string() }),
    handler: async ({ ctx, params }) => ({
      count: 1,
      evaluation_id: await deleteSimpleEvaluation(ctx.app.db, ctx.principal.projectId, params.id),
    }),
  }),
  queryRoute({
    path: base,
    key: "evaluations",
    filterKey: "evaluation",
    filter: z.strictObject({
      ids: z.array(z.string().uuid()).nullish(),
      name: z.string().nullish(),
      description: z.string().nullish(),
      flags: runFlagsFilter.nullish(),
      tags: z.record(z.string(), z.unknown()).nullish(),
      meta: z.record(z.string(), z.unknown()).nullish(),
    }),
    summary: "Evaluations by flags, tags, meta, ids, name or description, newest first",
    wire: simpleEvaluationWire,
    query: querySimpleEvaluations,
    toWire: (evaluation) => evaluation,
  }),
  lifecycle("start", "Start (or resume) an evaluation: its cells are queued for the workers"),
  lifecycle("stop", "Stop an evaluation: no more cells start and the running ones are aborted"),
  lifecycle("close", "Close an evaluation: it takes no more writes until opened"),
  lifecycle("open", "Open a closed evaluation"),
];

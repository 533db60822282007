import { z } from "zod";
import { defineRoute, type AnyRoute } from "@/server/http/route";
import { scopeOf } from "@/server/versioning";
import { failureModeToEvaluator, failureModeToTestset } from "./actions";
import { cancelTriage, getFailureMode, getTriage, listTriages, startTriage } from "./triages";
import {
  evaluatorResponse,
  failureModeEvaluatorBody,
  failureModeResponse,
  failureModeTestsetBody,
  startTriageBody,
  testsetRevisionResponse,
  triageListQuery,
  triageResponse,
  triagesResponse,
} from "./wire";

const BASE = "/api/improve/triages";
const MODES = "/api/improve/failure-modes";
const idParams = z.object({ id: z.string().uuid() });

export const triageRoutes: AnyRoute[] = [
  defineRoute({
    method: "POST",
    path: BASE,
    auth: "api_key",
    tag: "improve",
    summary:
      "Start a triage: group the failures of some evidence (traces, a monitor's alert window, an evaluation run's low cells, annotations) into named failure modes",
    body: startTriageBody,
    response: triageResponse,
    status: 202,
    errors: [
      "alert_not_found",
      "connection_mismatch",
      "invalid_filtering",
      "missing_connection",
      "monitor_not_found",
      "not_found",
      "unknown_connection",
      "unknown_provider",
      "unresolved_provider",
    ],
    handler: async ({ ctx, body }) => ({ count: 1, triage: await startTriage(ctx.app, scopeOf(ctx), body) }),
  }),
  defineRoute({
    method: "GET",
    path: BASE,
    auth: "api_key",
    tag: "improve",
    summary: "The project's triages, newest first",
    query: triageListQuery,
    response: triagesResponse,
    handler: async ({ ctx, query }) => {
      const page = await listTriages(ctx.app.db, scopeOf(ctx).projectId, query);
      return { count: page.triages.length, ...page };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/{id}`,
    auth: "api_key",
    tag: "improve",
    summary: "One triage: its progress, spend and failure modes",
    params: idParams,
    response: triageResponse,
    errors: ["triage_not_found"],
    handler: async ({ ctx, params }) => ({
      count: 1,
      triage: await getTriage(ctx.app.db, scopeOf(ctx).projectId, params.id),
    }),
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/{id}/cancel`,
    auth: "api_key",
    tag: "improve",
    summary: "Cancel a queued or running triage; its worker stops before the next model call",
    params: idParams,
    noJsonBody: { description: "Cancelled" },
    status: 202,
    errors: ["triage_ended", "triage_not_found"],
    handler: async ({ ctx, params }) => {
      await cancelTriage(ctx.app.db, scopeOf(ctx), params.id, ctx.app.now());
      return new Response(null, { status: 202 });
    },
  }),
  defineRoute({
    method: "GET",
    path: `${MODES}/{id}`,
    auth: "api_key",
    tag: "improve",
    summary: "One failure mode of a triage, with its examples",
    params: idParams,
    response: failureModeResponse,
    errors: ["failure_mode_not_found"],
    handler: async ({ ctx, params }) => ({
      count: 1,
      failure_mode: await getFailureMode(ctx.app.db, scopeOf(ctx).projectId, params.id),
    }),
  }),
  defineRoute({
    method: "POST",
    path: `${MODES}/{id}/testset`,
    auth: "api_key",
    tag: "improve",
    summary:
      "Make a testset of a failure mode's examples (a new testset, or a new revision of testset_id), with the expected output where a person gave one",
    params: idParams,
    body: failureModeTestsetBody,
    response: testsetRevisionResponse,
    status: 201,
    errors: ["archived", "failure_mode_not_found", "not_found"],
    handler: async ({ ctx, params, body }) => ({
      count: 1,
      testset_revision: await failureModeToTestset(ctx.app.db, scopeOf(ctx), params.id, body),
    }),
  }),
  defineRoute({
    method: "POST",
    path: `${MODES}/{id}/evaluator`,
    auth: "api_key",
    tag: "improve",
    summary:
      "Propose an evaluator that catches a failure mode (an LLM judge rubric, a regex or a code check) and create it",
    params: idParams,
    body: failureModeEvaluatorBody,
    response: evaluatorResponse,
    status: 201,
    errors: ["failure_mode_not_found", "no_common_pattern"],
    handler: async ({ ctx, params, body }) => ({
      count: 1,
      evaluator: await failureModeToEvaluator(ctx.app.db, scopeOf(ctx), params.id, body),
    }),
  }),
];

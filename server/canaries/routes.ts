import { BadRequestError } from "@/server/core/errors";
import { defineRoute, type AnyRoute } from "@/server/http/route";
import { domainKeys, Lookup, scopeOf, type DomainName } from "@/server/versioning";
import { promoteCanary, rampCanary, rollbackCanary, startCanary } from "./actions";
import { compareCanary } from "./comparison";
import { getCanary, listCanaries } from "./store";
import {
  canariesResponse,
  canaryListQuery,
  canaryResponse,
  canaryToWire,
  comparisonResponse,
  rampBody,
  rollbackBody,
  startCanaryBody,
} from "./wire";
import { z } from "zod";

const BASE = "/api/environments/canaries";
const idParams = z.object({ id: z.string().uuid() });
const FAMILIES: [string, DomainName][] = [
  ["workflow_revision_ref", "workflows"],
  ["application_revision_ref", "applications"],
  ["evaluator_revision_ref", "evaluators"],
];

const one = (row: Parameters<typeof canaryToWire>[0]) => ({ count: 1 as const, canary: canaryToWire(row) });

export const canaryRoutes: AnyRoute[] = [
  defineRoute({
    method: "POST",
    path: BASE,
    auth: "api_key",
    tag: "environments",
    summary:
      "Start a canary: a revision takes `weight` percent of an environment key's traffic beside the one deployed there, optionally ramped and guarded",
    body: startCanaryBody,
    response: canaryResponse,
    errors: [
      "already_split",
      "archived",
      "canary_is_baseline",
      "canary_running",
      "evaluation_not_found",
      "evaluation_not_live",
      "evaluation_required",
      "initial_revision_exists",
      "invalid_ramp",
      "invalid_weight",
      "missing_reference",
      "monitor_alerting",
      "monitor_not_found",
      "no_variant",
      "not_found",
      "nothing_deployed",
      "reference_mismatch",
      "slug_taken",
    ],
    handler: async ({ ctx, body }) => {
      const named = FAMILIES.filter(([field]) => body[field as keyof typeof body]);
      if (named.length !== 1)
        throw new BadRequestError(
          "Name the candidate with exactly one of workflow_revision_ref, application_revision_ref, evaluator_revision_ref",
          "missing_reference",
        );
      const [field, domain] = named[0]!;
      const row = await startCanary(
        ctx.app.db,
        scopeOf(ctx),
        {
          environment: body.environment_ref,
          keys: domainKeys(domain),
          revision: body[field as "workflow_revision_ref"]!,
          key: body.key,
          weight: body.weight,
          ramp: body.ramp && { steps: body.ramp.steps, intervalMinutes: body.ramp.interval_minutes },
          guards: body.guards,
        },
        ctx.app.now(),
      );
      return one(row);
    },
  }),
  defineRoute({
    method: "GET",
    path: BASE,
    auth: "api_key",
    tag: "environments",
    summary: "A project's canaries, newest first (query: environment_id, status)",
    query: canaryListQuery,
    response: canariesResponse,
    handler: async ({ ctx, query }) => {
      const rows = await listCanaries(ctx.app.db, scopeOf(ctx).projectId, {
        environmentId: query.environment_id,
        status: query.status,
      });
      return { count: rows.length, canaries: rows.map(canaryToWire) };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/{id}`,
    auth: "api_key",
    tag: "environments",
    summary: "One canary: its weights, ramp schedule, guards and outcome",
    params: idParams,
    response: canaryResponse,
    errors: ["not_found"],
    handler: async ({ ctx, params }) => one(await getCanary(ctx.app.db, scopeOf(ctx).projectId, params.id)),
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/{id}/comparison`,
    auth: "api_key",
    tag: "environments",
    summary: "The environment's runs since the canary started, by revision: runs, errors, cost, latency, live scores",
    params: idParams,
    response: comparisonResponse,
    errors: ["bad_timezone", "bad_window", "invalid_filtering", "not_found", "too_many_buckets"],
    handler: async ({ ctx, params }) => {
      const row = await getCanary(ctx.app.db, scopeOf(ctx).projectId, params.id);
      const environment = await new Lookup(ctx.app.db, row.projectId, domainKeys("environments")).artifact({
        id: row.environmentId,
      });
      return {
        count: 1 as const,
        comparison: await compareCanary(ctx.app.db, scopeOf(ctx), row, environment.slug, ctx.app.now()),
      };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/{id}/ramp`,
    auth: "api_key",
    tag: "environments",
    summary: "Move the candidate to `weight` percent (default: the ramp's next step); 100 promotes",
    params: idParams,
    body: rampBody,
    response: canaryResponse,
    errors: [
      "archived",
      "canary_ended",
      "initial_revision_exists",
      "invalid_weight",
      "no_variant",
      "not_found",
      "ramp_done",
      "reference_mismatch",
      "slug_taken",
    ],
    handler: async ({ ctx, params, body }) =>
      one(await rampCanary(ctx.app.db, scopeOf(ctx), params.id, body.weight, ctx.app.now())),
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/{id}/promote`,
    auth: "api_key",
    tag: "environments",
    summary: "Promote the candidate: it takes the key for all traffic and the split ends",
    params: idParams,
    response: canaryResponse,
    errors: [
      "archived",
      "canary_ended",
      "initial_revision_exists",
      "no_variant",
      "not_found",
      "reference_mismatch",
      "slug_taken",
    ],
    handler: async ({ ctx, params }) => one(await promoteCanary(ctx.app.db, scopeOf(ctx), params.id, ctx.app.now())),
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/{id}/rollback`,
    auth: "api_key",
    tag: "environments",
    summary: "Roll the canary back: the baseline takes all traffic again; the reason goes into the history",
    params: idParams,
    body: rollbackBody,
    response: canaryResponse,
    errors: [
      "archived",
      "canary_ended",
      "initial_revision_exists",
      "no_variant",
      "not_found",
      "reference_mismatch",
      "slug_taken",
    ],
    handler: async ({ ctx, params, body }) =>
      one(
        await rollbackCanary(ctx.app.db, scopeOf(ctx), params.id, body.reason ?? "rolled back by hand", ctx.app.now()),
      ),
  }),
];

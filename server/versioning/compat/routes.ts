import { z } from "zod";
import { one, pageBody } from "@/server/http/envelope";
import { defineRoute, type AnyRoute } from "@/server/http/route";
import { oneSchema, pageSchema } from "@/server/http/envelope";
import { setArtifactArchived } from "../artifacts";
import type { DomainSpec } from "../domain-spec";
import { filterOf, requestSchemas } from "../routes/request-schemas";
import { archiveRoutes, editedFields, idParams, nothingSchema, orNothing, scopeOf } from "../routes/route-helpers";
import { createSimple, editSimple, getSimple, querySimple, type SimpleFields } from "./simple-entity";
import { simpleToWire, simpleWireSchema } from "./wire";

/** Every create and edit commits a revision: the domain's commit checks refuse as a commit's would. */
const DOMAIN_COMMIT_ERRORS = [
  "data_or_delta",
  "embed_not_found",
  "evaluation_below_threshold",
  "evaluation_required",
  "invalid_agent_template",
  "invalid_environment_entry",
  "invalid_evaluator_parameters",
  "invalid_split",
  "invalid_testcases",
  "no_variant",
  "reference_mismatch",
  "too_many_testcases",
] as const;

/** `/api/simple/<domain>/`: an artifact, its default variant and latest revision as one entity. */
export function simpleRoutes(spec: DomainSpec): AnyRoute[] {
  const { keys } = spec;
  const base = `/api/simple/${keys.name}`;
  const tag = `simple ${keys.name}`;
  const schemas = requestSchemas(keys, { acceptsDelta: false });
  const wire = (entity: Parameters<typeof simpleToWire>[1]) => simpleToWire(keys, entity);
  const responses = {
    simple: oneSchema(keys.one, simpleWireSchema()),
    simplePage: pageSchema(keys.name, simpleWireSchema()),
  };
  const archives = archiveRoutes(
    base,
    tag,
    { entity: keys.one, archivedSummary: `Archive a ${keys.one}`, response: responses.simple },
    async (ctx, id, archived) => {
      await setArtifactArchived(ctx.app.db, scopeOf(ctx), spec, id, archived);
      return one(keys.one, wire(await getSimple(ctx.app.db, scopeOf(ctx), spec, id)));
    },
  );
  return [
    defineRoute({
      method: "POST",
      path: `${base}/`,
      auth: "api_key",
      tag,
      summary: `Create a ${keys.one}, its default variant and revision 1 (with data, or empty) in one call`,
      body: schemas.create,
      response: responses.simple,
      errors: ["archived", "initial_revision_exists", "not_found", "slug_taken", ...DOMAIN_COMMIT_ERRORS],
      handler: async ({ ctx, body }) =>
        one(keys.one, wire(await createSimple(ctx.app.db, scopeOf(ctx), spec, body[keys.one]))),
    }),
    defineRoute({
      method: "GET",
      path: `${base}/{id}`,
      auth: "api_key",
      tag,
      summary: `A ${keys.one} with the data of its default variant's latest revision ({count: 0} when there is none)`,
      params: idParams,
      response: z.union([responses.simple, nothingSchema]),
      handler: async ({ ctx, params }) =>
        orNothing(async () => one(keys.one, wire(await getSimple(ctx.app.db, scopeOf(ctx), spec, params.id)))),
    }),
    defineRoute({
      method: "PUT",
      path: `${base}/{id}`,
      auth: "api_key",
      tag,
      summary: `Edit a ${keys.one}: header fields change the artifact, and every edit commits a revision (data as sent, else the latest's)`,
      params: idParams,
      body: schemas.simpleEdit,
      response: responses.simple,
      maxBodyBytes: 8 * 1024 * 1024,
      errors: [
        "archived",
        "id_mismatch",
        "initial_revision_exists",
        "not_found",
        "slug_immutable",
        "slug_taken",
        ...DOMAIN_COMMIT_ERRORS,
      ],
      handler: async ({ ctx, params, body }) => {
        const fields = editedFields<SimpleFields>(body, keys.one, params.id);
        return one(keys.one, wire(await editSimple(ctx.app.db, scopeOf(ctx), spec, params.id, fields)));
      },
    }),
    defineRoute({
      method: "POST",
      path: `${base}/query`,
      auth: "api_key",
      role: "viewer",
      tag,
      summary: `Query ${keys.name} with their latest data: the artifact query's filters, refs, archived, paging`,
      body: schemas.query,
      response: responses.simplePage,
      handler: async ({ ctx, body }) => {
        const page = await querySimple(ctx.app.db, scopeOf(ctx), spec, {
          filter: filterOf(body[keys.one] as Record<string, unknown> | undefined),
          refs: body[keys.refs] as { id?: string; slug?: string }[] | undefined,
          includeArchived: body.include_archived as boolean | undefined,
          windowing: body.windowing as never,
        });
        return pageBody(keys.name, page, wire);
      },
    }),
    ...archives,
  ];
}

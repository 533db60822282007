import { z } from "zod";
import { one, pageBody } from "@/server/http/envelope";
import { defineRoute, type AnyRoute } from "@/server/http/route";
import { createArtifact, getArtifact, queryArtifacts, setArtifactArchived, updateArtifact } from "../artifacts";
import type { DomainSpec } from "../domain-spec";
import { artifactToWire, revisionToWire, variantToWire } from "../wire";
import { filterOf, requestSchemas } from "./request-schemas";
import { responseSchemas } from "./response-schemas";
import { archiveRoutes, editedFields, idParams, nothingSchema, orNothing, scopeOf } from "./route-helpers";

export function artifactRoutes(spec: DomainSpec): AnyRoute[] {
  const { keys } = spec;
  const base = `/api/${keys.name}`;
  const schemas = requestSchemas(keys, { acceptsDelta: Boolean(spec.acceptsDelta) });
  const responses = responseSchemas(keys);
  const archives = archiveRoutes(
    base,
    keys.name,
    {
      entity: keys.one,
      archivedSummary: `Archive a ${keys.one}: hidden from queries with its variants and revisions; ids stay resolvable`,
      response: responses.artifact,
    },
    async (ctx, id, archived) =>
      one(keys.one, artifactToWire(await setArtifactArchived(ctx.app.db, scopeOf(ctx), spec, id, archived), keys)),
  );
  return [
    defineRoute({
      method: "POST",
      path: `${base}/`,
      auth: "api_key",
      tag: keys.name,
      summary: `Create a ${keys.one}; with data, also its first variant and revision 1 (without, it has no variant yet)`,
      body: schemas.create,
      response: responses.artifactCreated,
      // With data, revision 1 is committed: the domain's commit checks refuse as a commit's would.
      errors: [
        "archived",
        "data_or_delta",
        "embed_not_found",
        "initial_revision_exists",
        "invalid_agent_template",
        "invalid_environment_entry",
        "invalid_evaluator_parameters",
        "invalid_split",
        "invalid_testcases",
        "no_variant",
        "not_found",
        "reference_mismatch",
        "slug_taken",
        "unknown_evaluator",
      ],
      handler: async ({ ctx, body }) => {
        const input = body[keys.one] as Parameters<typeof createArtifact>[3];
        const created = await createArtifact(ctx.app.db, scopeOf(ctx), spec, input);
        return {
          ...one(keys.one, artifactToWire(created.artifact, keys)),
          ...(created.variant ? { [keys.variant]: variantToWire(keys, created.variant) } : {}),
          ...(created.commit ? { [keys.revision]: revisionToWire(keys, created.commit.revision) } : {}),
          ...(created.commit?.warnings.length ? { warnings: created.commit.warnings } : {}),
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: `${base}/{id}`,
      auth: "api_key",
      tag: keys.name,
      summary: `Fetch a ${keys.one} by id ({count: 0} when there is none)`,
      params: idParams,
      response: z.union([responses.artifact, nothingSchema]),
      handler: async ({ ctx, params }) =>
        orNothing(async () =>
          one(keys.one, artifactToWire(await getArtifact(ctx.app.db, scopeOf(ctx), spec, params.id), keys)),
        ),
    }),
    defineRoute({
      method: "PUT",
      path: `${base}/{id}`,
      auth: "api_key",
      tag: keys.name,
      summary: `Edit a ${keys.one}'s name, description, flags, tags or meta (an id in the body must be the path's)`,
      params: idParams,
      body: schemas.update,
      response: responses.artifact,
      errors: ["archived", "empty_update", "id_mismatch", "not_found", "slug_immutable"],
      handler: async ({ ctx, params, body }) => {
        const fields = editedFields<Parameters<typeof updateArtifact>[4]>(body, keys.one, params.id);
        return one(
          keys.one,
          artifactToWire(await updateArtifact(ctx.app.db, scopeOf(ctx), spec, params.id, fields), keys),
        );
      },
    }),
    defineRoute({
      method: "POST",
      path: `${base}/query`,
      auth: "api_key",
      role: "viewer",
      tag: keys.name,
      summary: `Query ${keys.name}: slug(s), ids, name and description substrings, flags/tags/meta containment, archived, paging`,
      body: schemas.query,
      response: responses.artifactPage,
      handler: async ({ ctx, body }) => {
        const page = await queryArtifacts(ctx.app.db, scopeOf(ctx), spec, {
          filter: filterOf(body[keys.one] as Record<string, unknown> | undefined),
          refs: body[keys.refs] as { id?: string; slug?: string }[] | undefined,
          includeArchived: body.include_archived as boolean | undefined,
          windowing: body.windowing as never,
        });
        return pageBody(keys.name, page, (a) => artifactToWire(a, keys));
      },
    }),
    ...archives,
  ];
}

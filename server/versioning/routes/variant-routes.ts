import { z } from "zod";
import { one, pageBody } from "@/server/http/envelope";
import { defineRoute, type AnyRoute } from "@/server/http/route";
import type { Executor } from "@/server/db";
import type { DomainSpec } from "../domain-spec";
import type { DomainKeys } from "../domains";
import type { VariantRecord } from "../records";
import {
  createVariant,
  forkVariant,
  getVariant,
  queryVariants,
  setVariantArchived,
  updateVariant,
  variantsAtVersionZero,
  type VariantFields,
} from "../variants";
import { revisionToWire, variantToWire } from "../wire";
import { filterOf, refsOf, requestSchemas } from "./request-schemas";
import { responseSchemas } from "./response-schemas";
import { archiveRoutes, editedFields, idParams, nothingSchema, orNothing, scopeOf } from "./route-helpers";

type RefList = { id?: string; slug?: string }[] | undefined;

/** One variant on the wire, its version "0" when version 0 is its only revision. */
async function variantWire(db: Executor, keys: DomainKeys, variant: VariantRecord) {
  return variantToWire(keys, variant, (await variantsAtVersionZero(db, [variant])).has(variant.id));
}

export function variantRoutes(spec: DomainSpec): AnyRoute[] {
  const { keys } = spec;
  const variantFilterOf = (f: Record<string, unknown> | undefined) =>
    f && { ...filterOf(f), artifactId: f[keys.artifactId] as string | undefined };
  const base = `/api/${keys.name}/variants`;
  const schemas = requestSchemas(keys, { acceptsDelta: Boolean(spec.acceptsDelta) });
  const responses = responseSchemas(keys);
  const archives = archiveRoutes(
    base,
    keys.name,
    {
      entity: keys.variant,
      archivedSummary: `Archive a ${keys.variant}: hidden from queries with its revisions`,
      response: responses.variant,
    },
    async (ctx, id, archived) =>
      one(
        keys.variant,
        await variantWire(ctx.app.db, keys, await setVariantArchived(ctx.app.db, scopeOf(ctx), spec, id, archived)),
      ),
  );
  return [
    defineRoute({
      method: "POST",
      path: `${base}/`,
      auth: "api_key",
      tag: keys.name,
      summary: `Create an empty ${keys.variant} (a branch) of a ${keys.one}`,
      body: schemas.variantCreate,
      response: responses.variant,
      errors: ["not_found", "slug_taken"],
      handler: async ({ ctx, body }) => {
        const { [keys.artifactId]: artifactId, ...fields } = body[keys.variant] as Record<string, unknown>;
        const variant = await createVariant(
          ctx.app.db,
          scopeOf(ctx),
          spec,
          artifactId as string,
          fields as VariantFields,
        );
        return one(keys.variant, variantToWire(keys, variant));
      },
    }),
    defineRoute({
      method: "GET",
      path: `${base}/{id}`,
      auth: "api_key",
      tag: keys.name,
      summary: `Fetch a ${keys.variant} by id ({count: 0} when there is none)`,
      params: idParams,
      response: z.union([responses.variant, nothingSchema]),
      errors: ["ambiguous_reference"],
      handler: async ({ ctx, params }) =>
        orNothing(async () =>
          one(
            keys.variant,
            await variantWire(ctx.app.db, keys, await getVariant(ctx.app.db, scopeOf(ctx), spec, params.id)),
          ),
        ),
    }),
    defineRoute({
      method: "PUT",
      path: `${base}/{id}`,
      auth: "api_key",
      tag: keys.name,
      summary: `Edit a ${keys.variant}'s name, description, flags, tags or meta (an id in the body must be the path's)`,
      params: idParams,
      body: schemas.variantUpdate,
      response: responses.variant,
      errors: ["ambiguous_reference", "empty_update", "id_mismatch", "not_found"],
      handler: async ({ ctx, params, body }) => {
        const fields = editedFields<VariantFields>(body, keys.variant, params.id);
        return one(
          keys.variant,
          await variantWire(ctx.app.db, keys, await updateVariant(ctx.app.db, scopeOf(ctx), spec, params.id, fields)),
        );
      },
    }),
    defineRoute({
      method: "POST",
      path: `${base}/query`,
      auth: "api_key",
      role: "viewer",
      tag: keys.name,
      summary: `Query ${keys.variants}: filters, ${keys.refs}, ${keys.variantRefs}, archived, paging`,
      body: schemas.variantQuery,
      response: responses.variantPage,
      handler: async ({ ctx, body }) => {
        const page = await queryVariants(ctx.app.db, scopeOf(ctx), spec, {
          filter: variantFilterOf(body[keys.variant] as Record<string, unknown> | undefined),
          artifactRefs: body[keys.refs] as RefList,
          variantRefs: body[keys.variantRefs] as RefList,
          includeArchived: body.include_archived as boolean | undefined,
          windowing: body.windowing as never,
        });
        const atZero = await variantsAtVersionZero(ctx.app.db, page.items);
        return pageBody(keys.variants, page, (v) => variantToWire(keys, v, atZero.has(v.id)));
      },
    }),
    defineRoute({
      method: "POST",
      path: `${base}/fork`,
      auth: "api_key",
      tag: keys.name,
      summary: `Fork: a new ${keys.variant} carrying the source's history up to the revision forked from (its head)`,
      body: schemas.fork,
      response: responses.fork,
      errors: [
        "ambiguous_reference",
        "archived",
        "bad_request",
        "initial_revision_exists",
        "key_without_environment",
        "missing_key",
        "missing_reference",
        "no_variant",
        "not_found",
        "reference_mismatch",
        "slug_taken",
        "version_without_context",
      ],
      handler: async ({ ctx, body }) => {
        const fields = (body[keys.variant] ?? {}) as VariantFields;
        const fork = await forkVariant(ctx.app.db, scopeOf(ctx), spec, refsOf(keys, body), fields);
        return {
          ...one(keys.variant, variantToWire(keys, fork.variant, fork.commit.revision.version === 0)),
          [keys.revision]: revisionToWire(keys, fork.commit.revision),
        };
      },
    }),
    ...archives,
  ];
}

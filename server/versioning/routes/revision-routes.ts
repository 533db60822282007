import { z } from "zod";
import { one, pageBody } from "@/server/http/envelope";
import { serializedJson, type SerializedJson } from "@/server/http/reply";
import { defineRoute, type AnyRoute, type RequestContext } from "@/server/http/route";
import { commitRevision, type CommitRequest } from "../commit";
import type { DomainSpec } from "../domain-spec";
import { revisionCacheFor, type Retrieval } from "../cache/revision-cache";
import { domainKeys } from "../domains";
import type { EmbedErrorPolicy, EmbedOptions } from "../embeds";
import type { EntityHeader } from "../records";
import type { RetrieveRefs } from "../references";
import { throughEnvironment } from "../resolve-revision";
import {
  fetchRevision,
  logRevisions,
  queryRevisions,
  resolveInline,
  retrieveRevision,
  setRevisionArchived,
  updateRevision,
} from "../revisions";
import { SERVED_REVISION_HEADER, SERVED_REVISION_HEADERS, SPLIT_KEY_HEADER } from "../split-choice";
import { resolutionInfo, retrievalInfo, revisionToWire } from "../wire";
import { filterOf, refsOf, requestSchemas } from "./request-schemas";
import { responseSchemas } from "./response-schemas";
import { archiveRoutes, editedFields, idParams, nothingSchema, orNothing, scopeOf } from "./route-helpers";
import { watchRoute } from "./watch-route";

const ENV_KEYS = domainKeys("environments");
type RefList = { id?: string; slug?: string }[] | undefined;

/** `author_ids`, `authors` and `author` together; absent when none was sent. */
function authorIdsOf(f: Record<string, unknown>): string[] | undefined {
  if (!f.author_ids && !f.authors && !f.author) return undefined;
  return [
    ...((f.author_ids as string[]) ?? []),
    ...((f.authors as string[]) ?? []),
    ...(f.author ? [f.author as string] : []),
  ];
}

export function revisionRoutes(spec: DomainSpec): AnyRoute[] {
  const { keys } = spec;
  const base = `/api/${keys.name}/revisions`;
  const schemas = requestSchemas(keys, {
    acceptsDelta: Boolean(spec.acceptsDelta),
    retrieveOptions: spec.retrieveOptions,
  });
  const responses = responseSchemas(keys);
  const wire = (r: Parameters<typeof revisionToWire>[1]) => revisionToWire(keys, r);
  /** The revision (with embeds replaced when they were resolved), what found it, and what was embedded. */
  const retrievalResponse = ({ resolved, ...resolution }: Awaited<ReturnType<typeof retrieveRevision>>) => ({
    ...one(keys.revision, resolved ? { ...wire(resolution.revision), data: resolved.data } : wire(resolution.revision)),
    retrieval_info: retrievalInfo(keys, resolution, ENV_KEYS),
    ...(resolved ? { resolution_info: resolutionInfo(resolved) } : {}),
  });
  // An answer from the revision cache is the same object on every hit: it is serialised once, and
  // forgotten with it when the cache drops it.
  const serializedAnswers = new WeakMap<Retrieval, SerializedJson>();
  const serializedResponse = (found: Retrieval) => {
    let answer = serializedAnswers.get(found);
    if (!answer)
      serializedAnswers.set(
        found,
        (answer = serializedJson(retrievalResponse(found), { [SERVED_REVISION_HEADER]: found.revision.id })),
      );
    return answer;
  };
  /** The retrieval, with the revision's data as the domain's retrieve options shape it (testsets, queries). */
  const answer = async (ctx: RequestContext<"api_key">, found: Retrieval, options: Record<string, unknown>) => {
    if (!spec.shapeRetrieved) return serializedResponse(found);
    const response: Record<string, unknown> = retrievalResponse(found);
    const revision = response[keys.revision] as { data?: Record<string, unknown> };
    const { projectId, userId } = scopeOf(ctx);
    const shaped = await spec.shapeRetrieved(revision.data ?? {}, options, {
      db: ctx.app.db,
      projectId,
      userId,
      revisionId: found.revision.id,
    });
    return {
      ...response,
      [keys.revision]: { ...revision, data: shaped.data },
      ...(shaped.windowing ? { windowing: shaped.windowing } : {}),
    };
  };
  const embedOptions = (body: Record<string, unknown>): EmbedOptions => ({
    maxDepth: body.max_depth as number | undefined,
    maxEmbeds: body.max_embeds as number | undefined,
    errorPolicy: body.error_policy as EmbedErrorPolicy | undefined,
  });
  // Retrieve and resolve bodies are memoized (one frozen object per distinct body), so the
  // references and options made of one are too: the same objects on every request let the
  // revision cache make its key once per body (cache/cached-retrieval.ts).
  const retrieveRequests = new WeakMap<object, { refs: RetrieveRefs; resolve: boolean; embeds: EmbedOptions }>();
  const retrieveRequest = (body: Record<string, unknown>, resolve: boolean) => {
    let request = retrieveRequests.get(body);
    if (!request || request.resolve !== resolve) {
      request = { refs: refsOf(keys, body), resolve, embeds: embedOptions(body) };
      retrieveRequests.set(body, request);
    }
    return request;
  };
  /** A parsed commit wrapper (nulls are absent) as an engine request. */
  const commitRequestOf = (raw: unknown): CommitRequest => {
    const c = raw as Record<string, unknown>;
    const get = <T>(k: string) => (c[k] ?? undefined) as T | undefined;
    return {
      variantId: get(keys.variantId),
      artifactId: get(keys.artifactId),
      revisionId: get("revision_id"),
      slug: get("slug"),
      message: get("message"),
      name: get("name"),
      description: get("description"),
      flags: get("flags"),
      tags: get("tags"),
      meta: get("meta"),
      data: get("data"),
      delta: get("delta"),
    };
  };
  const archives = archiveRoutes(
    base,
    keys.name,
    {
      entity: keys.revision,
      archivedSummary: `Archive a ${keys.revision}; its id stays resolvable`,
      response: responses.revision,
    },
    async (ctx, id, archived) =>
      one(keys.revision, wire(await setRevisionArchived(ctx.app.db, scopeOf(ctx), spec, id, archived))),
  );
  return [
    defineRoute({
      method: "POST",
      path: `${base}/commit`,
      auth: "api_key",
      tag: keys.name,
      summary: `Commit a new immutable ${keys.revision} to a variant (body: ${keys.commit}, or ${keys.revision})`,
      body: schemas.commit,
      response: responses.committed,
      maxBodyBytes: 8 * 1024 * 1024,
      errors: [
        "archived",
        "data_or_delta",
        "evaluation_below_threshold",
        "evaluation_required",
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
        const request = commitRequestOf(body[keys.commit] ?? body[keys.revision]);
        const { revision, warnings } = await commitRevision(ctx.app.db, scopeOf(ctx), spec, request);
        return { ...one(keys.revision, wire(revision)), ...(warnings.length ? { warnings } : {}) };
      },
    }),
    defineRoute({
      method: "POST",
      path: `${base}/`,
      auth: "api_key",
      tag: keys.name,
      summary: `Create a variant's first ${keys.revision} (the compat API's create form); 409 once the variant has one`,
      body: schemas.revisionCreate,
      response: responses.committed,
      maxBodyBytes: 8 * 1024 * 1024,
      errors: [
        "archived",
        "empty_update",
        "id_mismatch",
        "initial_revision_exists",
        "no_variant",
        "not_found",
        "reference_mismatch",
        "slug_taken",
      ],
      handler: async ({ ctx, body }) => {
        const request = commitRequestOf(body[keys.revision]);
        request.message ??= "Initial revision";
        request.initial = true;
        const { revision, warnings } = await commitRevision(ctx.app.db, scopeOf(ctx), spec, request);
        return { ...one(keys.revision, wire(revision)), ...(warnings.length ? { warnings } : {}) };
      },
    }),
    defineRoute({
      method: "PUT",
      path: `${base}/{id}`,
      auth: "api_key",
      tag: keys.name,
      summary: `Edit a ${keys.revision}'s name, description, flags, tags or meta; what was committed never changes`,
      params: idParams,
      body: schemas.revisionUpdate,
      response: responses.revision,
      errors: ["empty_update", "id_mismatch", "not_found"],
      handler: async ({ ctx, params, body }) => {
        const fields = editedFields<EntityHeader>(body, keys.revision, params.id);
        return one(keys.revision, wire(await updateRevision(ctx.app.db, scopeOf(ctx), spec, params.id, fields)));
      },
    }),
    defineRoute({
      method: "POST",
      path: `${base}/retrieve`,
      auth: "api_key",
      role: "viewer",
      memoizeBody: true,
      tag: keys.name,
      summary: `Retrieve one ${keys.revision} by any reference combination (revision, variant + version, variant, artifact, environment + key)`,
      body: schemas.retrieve,
      response: z.union([responses.retrieved, nothingSchema]),
      headers: SERVED_REVISION_HEADERS,
      errors: [
        "ambiguous_reference",
        "embed_cycle",
        "embed_depth",
        "embed_limit",
        "embed_not_found",
        "focus_conflict",
        "invalid_cursor",
        "invalid_embed",
        "key_without_environment",
        "missing_key",
        "missing_reference",
        "no_variant",
        "not_found",
        "reference_mismatch",
        "version_without_context",
        "windowing_without_traces",
      ],
      handler: async ({ ctx, body }) => {
        const { refs, resolve, embeds } = retrieveRequest(body, Boolean(body.resolve));
        const retrieve = async () =>
          answer(
            ctx,
            await retrieveRevision(ctx.app.db, scopeOf(ctx), spec, refs, {
              resolve,
              embeds,
              cache: revisionCacheFor(ctx.app),
              splitKey: ctx.header(SPLIT_KEY_HEADER) ?? undefined,
            }),
            body,
          );
        // Through an environment a miss stays a 404, as in the compat API (its one exception).
        return throughEnvironment(keys, refs) ? retrieve() : orNothing(retrieve);
      },
    }),
    defineRoute({
      method: "POST",
      path: `${base}/resolve`,
      auth: "api_key",
      role: "viewer",
      memoizeBody: true,
      tag: keys.name,
      summary: `Resolve every @svc.embed (object or string form) of a ${keys.revision}, found by reference or sent inline; max_depth, max_embeds, error_policy`,
      body: schemas.resolve,
      response: responses.resolved,
      // By reference it answers as retrieve does (the served revision); inline it names none.
      headers: SERVED_REVISION_HEADERS,
      errors: [
        "ambiguous_reference",
        "ambiguous_request",
        "embed_cycle",
        "embed_depth",
        "embed_limit",
        "embed_not_found",
        "invalid_embed",
        "key_without_environment",
        "missing_key",
        "missing_reference",
        "no_variant",
        "not_found",
        "reference_mismatch",
        "version_without_context",
      ],
      handler: async ({ ctx, body }) => {
        const inline = body[keys.revision] as { data: Record<string, unknown> } | undefined;
        const { refs, embeds } = retrieveRequest(body, true);
        if (!inline)
          return answer(
            ctx,
            await retrieveRevision(ctx.app.db, scopeOf(ctx), spec, refs, {
              resolve: true,
              embeds,
              cache: revisionCacheFor(ctx.app),
              splitKey: ctx.header(SPLIT_KEY_HEADER) ?? undefined,
            }),
            {},
          );
        const resolved = await resolveInline(ctx.app.db, scopeOf(ctx), spec, inline.data, refs, embedOptions(body));
        return { ...one(keys.revision, { data: resolved.data }), resolution_info: resolutionInfo(resolved) };
      },
    }),
    defineRoute({
      method: "POST",
      path: `${base}/log`,
      auth: "api_key",
      role: "viewer",
      tag: keys.name,
      summary: `History of a variant, newest first, without payloads (body: {${keys.one}: {${keys.variantId}}} or {${keys.revisions}: {..., depth}})`,
      body: schemas.log,
      response: responses.log,
      errors: ["ambiguous_reference", "missing_reference"],
      handler: async ({ ctx, body }) => {
        const a = (body[keys.one] ?? {}) as Record<string, string | null | undefined>;
        const b = (body[keys.revisions] ?? {}) as Record<string, string | number | null | undefined>;
        const logged = await orNothing(() =>
          logRevisions(ctx.app.db, scopeOf(ctx), spec, {
            variantId: (a[keys.variantId] ?? b[keys.variantId] ?? undefined) as string | undefined,
            artifactId: (a[keys.artifactId] ?? b[keys.artifactId] ?? undefined) as string | undefined,
            revisionId: (b[keys.revisionId] ?? undefined) as string | undefined,
            depth: ((b.depth ?? body.depth) as number | null | undefined) ?? undefined,
          }),
        );
        // A log of nothing is an empty history, with what was not found.
        if (!Array.isArray(logged)) return { ...logged, [keys.revisions]: [] };
        return { count: logged.length, [keys.revisions]: logged.map(wire) };
      },
    }),
    defineRoute({
      method: "POST",
      path: `${base}/query`,
      auth: "api_key",
      role: "viewer",
      tag: keys.name,
      summary: `Query ${keys.revisions} (with payloads): ids, slugs, message, authors, references, archived, paging`,
      body: schemas.revisionQuery,
      response: responses.revisionPage,
      handler: async ({ ctx, body }) => {
        const f = (body[keys.revision] ?? {}) as Record<string, unknown>;
        const page = await queryRevisions(ctx.app.db, scopeOf(ctx), spec, {
          filter: {
            ...filterOf(f),
            message: f.message as string | undefined,
            authorIds: authorIdsOf(f),
            artifactId: f[keys.artifactId] as string | undefined,
            variantId: f[keys.variantId] as string | undefined,
          },
          artifactRefs: body[keys.refs] as RefList,
          variantRefs: body[keys.variantRefs] as RefList,
          revisionRefs: body[keys.revisionRefs] as RefList,
          includeArchived: body.include_archived as boolean | undefined,
          windowing: body.windowing as never,
        });
        return pageBody(keys.revisions, page, wire);
      },
    }),
    defineRoute({
      method: "GET",
      path: `${base}/{id}`,
      auth: "api_key",
      tag: keys.name,
      summary: `Fetch a ${keys.revision} by id ({count: 0} when there is none)`,
      params: idParams,
      response: z.union([responses.revision, nothingSchema]),
      handler: async ({ ctx, params }) =>
        orNothing(async () => one(keys.revision, wire(await fetchRevision(ctx.app.db, scopeOf(ctx), spec, params.id)))),
    }),
    ...archives,
    watchRoute(spec, retrievalResponse),
  ];
}

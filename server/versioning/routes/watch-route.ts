import { z } from "zod";
import { defineRoute, type AnyRoute } from "@/server/http/route";
import { watchRevision } from "../cache/watch";
import type { DomainSpec } from "../domain-spec";
import { refSchema } from "../references";
import { SPLIT_KEY_HEADER } from "../split-choice";
import { refsOf } from "./request-schemas";
import { scopeOf } from "./route-helpers";

/**
 * The references of a retrieve as query parameters: `<ref>.id`, `<ref>.slug`, `<ref>.version` for
 * each reference a retrieve body takes, and `key`. Unknown parameters are a 400 naming them.
 */
function watchQuery(refNames: string[]) {
  const allowed = new Set([
    "key",
    "split_key",
    ...refNames.flatMap((r) => ["id", "slug", "version"].map((f) => `${r}.${f}`)),
  ]);
  return z
    .record(z.string(), z.string())
    .superRefine((q, ctx) => {
      for (const name of Object.keys(q))
        if (!allowed.has(name))
          ctx.addIssue({ code: "custom", path: [name], message: `unknown parameter; use ${[...allowed].join(", ")}` });
    })
    .transform((q) => {
      const body: Record<string, Record<string, string> | string> = {};
      for (const [name, value] of Object.entries(q)) {
        const [ref, field] = name.split(".");
        if (field) ((body[ref] ??= {}) as Record<string, string>)[field] = value;
        else body[name] = value;
      }
      return body;
    })
    .pipe(
      z.strictObject({
        key: z.string().min(1).max(300).optional(),
        split_key: z.string().min(1).max(300).optional(),
        ...Object.fromEntries(refNames.map((r) => [r, refSchema.optional()])),
      }),
    );
}

/** `GET /api/<domain>/revisions/watch`: server-sent events of the revision the references resolve to. */
export function watchRoute(spec: DomainSpec, serialize: Parameters<typeof watchRevision>[4]["serialize"]): AnyRoute {
  const { keys } = spec;
  const refNames = [
    keys.ref,
    keys.variantRef,
    keys.revisionRef,
    "environment_ref",
    "environment_variant_ref",
    "environment_revision_ref",
  ];
  return defineRoute({
    method: "GET",
    path: `/api/${keys.name}/revisions/watch`,
    auth: "api_key",
    tag: keys.name,
    summary: `Watch a ${keys.revision} by the references a retrieve takes (query: ${keys.ref}.slug, environment_ref.slug, key, ...): the current one at once, then every new one, as server-sent events; Last-Event-ID resumes`,
    query: watchQuery(refNames),
    noJsonBody: {
      description: `Server-sent events, each carrying one ${keys.revision} as JSON`,
      contentTypes: ["text/event-stream"],
    },
    errors: [
      "ambiguous_reference",
      "embed_cycle",
      "embed_depth",
      "embed_limit",
      "embed_not_found",
      "key_without_environment",
      "missing_reference",
      "no_variant",
      "not_found",
      "reference_mismatch",
      "version_without_context",
    ],
    handler: async ({ ctx, query }) =>
      watchRevision(ctx.app, scopeOf(ctx), spec, refsOf(keys, query as Record<string, unknown>), {
        lastEventId: ctx.request.headers.get("last-event-id") ?? undefined,
        // An EventSource cannot send headers: the query's split_key stands in for the header.
        splitKey: (query as { split_key?: string }).split_key ?? ctx.header(SPLIT_KEY_HEADER) ?? undefined,
        signal: ctx.request.signal,
        serialize,
      }),
  });
}

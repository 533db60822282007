import { randomHex } from "@/server/core/ids";
import { z } from "zod";
import type { TracingConfig } from "@/server/core/config";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { isObject } from "../attributes";
import { spanIdToWire, storedTraceId, traceIdToWire } from "../ids";
import { acceptSpans } from "../ingest/accept";
import type { Scope } from "@/server/versioning";
import { ensureAnnotationEvaluator } from "./annotation-evaluator";
import { legacyDeleteTrace } from "./legacy";
import { parseTracingRequest } from "../parse-request";
import { queryTracePage } from "../query/run-query";
import { parseWindowing } from "../query/windowing";
import { loadTraces } from "../store/read-spans";
import type { SpanRow } from "../wire";

type Ref = { id?: string; slug?: string; version?: string | number };
type Link = { trace_id: string; span_id: string; attributes?: Record<string, unknown> };
/** A named link to an entity rather than a span (`{"testcase": {"id": ...}}`), as annotations of testcases carry. */
type EntityLink = { id?: string; slug?: string };
type NamedLinks = Record<string, { trace_id: string; span_id: string } | EntityLink>;

const isSpanLink = (link: object): link is Link => "trace_id" in link && "span_id" in link;

const simpleLinkWire = z.strictObject({
  trace_id: z.string(),
  span_id: z.string(),
  attributes: z.record(z.string(), z.unknown()).optional(),
});
const entityLinkWire = z.strictObject({ id: z.string().optional(), slug: z.string().optional() });

/** A simple trace as written and read back: references and named links as maps, unnamed links as a list. */
export const simpleTraceWire = z.strictObject({
  trace_id: z.string(),
  span_id: z.string(),
  origin: z.string().optional(),
  kind: z.string().optional(),
  channel: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
  references: z.record(z.string(), z.unknown()).optional(),
  links: z.union([z.record(z.string(), z.union([simpleLinkWire, entityLinkWire])), z.array(simpleLinkWire)]).optional(),
  tags: z.record(z.string(), z.unknown()).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

export interface SimpleTraceInput {
  origin?: "human" | "auto" | "custom";
  kind?: "adhoc" | "eval" | "play";
  channel?: "otlp" | "web" | "sdk" | "api";
  data: Record<string, unknown>;
  references?: Record<string, Ref>;
  links?: NamedLinks | Link[];
  tags?: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

/**
 * POST /simple/traces/: one `task` span in a new trace (ids minted here), named after the
 * evaluator slug or `annotation`; origin, kind and channel become `ag.flags`; named links keep
 * their name in `attributes.key`. With links the trace is an annotation. An evaluator slug the
 * project does not have is created first (annotation-evaluator.ts), as the reference does.
 */
export async function createSimpleTrace(db: Database, config: TracingConfig, scope: Scope, input: SimpleTraceInput) {
  const { projectId } = scope;
  await ensureAnnotationEvaluator(db, scope, input.references, input.data);
  return writeSimpleTrace(db, config, projectId, input, {
    traceId: randomHex(16),
    spanId: randomHex(8),
  });
}

/** GET /simple/traces/{id}: the trace's root span read back as a simple trace, or `{count: 0}`. */
export async function getSimpleTrace(db: Database, projectId: string, rawId: string) {
  const root = await loadRoot(db, projectId, rawId);
  return root ? { count: 1, trace: simpleTraceOf(root) } : { count: 0 };
}

/**
 * PATCH /simple/traces/{id}: re-ingests the trace under the same ids (a replace, queued like every
 * write). `data` is required, as in the reference implementation; other fields left out keep their
 * stored value.
 */
export async function editSimpleTrace(
  db: Database,
  config: TracingConfig,
  projectId: string,
  rawId: string,
  input: SimpleTraceInput,
) {
  const root = await loadRoot(db, projectId, rawId);
  if (!root) throw new NotFoundError(`simple trace ${rawId} does not exist (or is not written yet)`);
  const stored = simpleTraceOf(root);
  const merged: SimpleTraceInput = {
    origin: input.origin ?? stored.origin,
    kind: input.kind ?? stored.kind,
    channel: input.channel ?? stored.channel,
    data: input.data,
    references: input.references ?? stored.references,
    links: input.links ?? stored.links,
    tags: input.tags ?? stored.tags,
    meta: input.meta ?? stored.meta,
  };
  const written = await writeSimpleTrace(db, config, projectId, merged, {
    traceId: stored.trace_id,
    spanId: stored.span_id,
    replace: root.trace_id,
  });
  return written;
}

/** DELETE /simple/traces/{id}: a hard delete done before the answer; `{count, link}` of the span removed. */
export async function deleteSimpleTrace(db: Database, projectId: string, rawId: string) {
  const { count, links } = await legacyDeleteTrace(db, projectId, rawId);
  return count > 0 ? { count, link: links[0] } : { count: 0 };
}

export interface SimpleTraceQuery {
  trace?: {
    origin?: string;
    kind?: string;
    channel?: string;
    tags?: Record<string, unknown>;
    meta?: Record<string, unknown>;
    references?: Record<string, Ref> | Ref[];
    links?: NamedLinks | Link[];
  };
  /** The traces' own (trace_id, span_id): a batch read, unlike `trace.links` (links the traces carry). */
  links?: { trace_id: string; span_id: string }[];
  windowing?: unknown;
}

/**
 * POST /simple/traces/query: simple traces (origin, kind, channel as sent; any of the given
 * references; any of the given links, the way annotations of an invocation are found), newest first.
 */
export async function querySimpleTraces(db: Database, projectId: string, query: SimpleTraceQuery) {
  const filter = query.trace ?? {};
  const conditions: Record<string, unknown>[] = [{ field: "attributes", key: "ag.flags.origin", operator: "exists" }];
  for (const flag of ["origin", "kind", "channel"] as const) {
    if (filter[flag]) conditions.push({ field: "attributes", key: `ag.flags.${flag}`, value: filter[flag] });
  }
  const refs = filter.references
    ? Array.isArray(filter.references)
      ? filter.references
      : Object.values(filter.references)
    : [];
  if (refs.length)
    conditions.push({
      field: "references",
      operator: "in",
      value: refs.map((r) => withoutEmpty({ id: r.id, slug: r.slug })),
    });
  for (const part of ["tags", "meta"] as const) {
    for (const [key, value] of Object.entries(filter[part] ?? {}))
      conditions.push({ field: "attributes", key: `ag.${part}.${key}`, value });
  }
  const linkConditions = linkFilter(filter.links);
  if (linkConditions.length) conditions.push({ operator: "or", conditions: linkConditions });
  if (query.links?.length)
    conditions.push({
      operator: "or",
      conditions: query.links.map((own) => ({
        operator: "and",
        conditions: [
          { field: "trace_id", value: own.trace_id },
          { field: "span_id", value: own.span_id },
        ],
      })),
    });
  const page = await queryTracePage(
    db,
    projectId,
    { operator: "and", conditions },
    parseWindowing(query.windowing ?? {}, "trace"),
  );
  const traces = page.traces.map((t) => simpleTraceOf(rootOf(t.spans)));
  return { count: traces.length, traces, ...(page.next ? { windowing: { next: page.next } } : {}) };
}

/** Any of the given links: span links as the span's links, entity links by the id (or slug) stored under their name. */
function linkFilter(links: NamedLinks | Link[] | undefined): Record<string, unknown>[] {
  if (!links) return [];
  const entries: [string | undefined, Link | EntityLink][] = Array.isArray(links)
    ? links.map((l) => [undefined, l])
    : Object.entries(links);
  const spanLinks = entries.map(([, l]) => l).filter(isSpanLink);
  const conditions: Record<string, unknown>[] = spanLinks.length
    ? [{ field: "links", operator: "in", value: spanLinks.map((l) => ({ trace_id: l.trace_id, span_id: l.span_id })) }]
    : [];
  for (const [name, link] of entries) {
    if (isSpanLink(link) || !name) continue;
    const [field, value] = link.id ? ["id", link.id] : ["slug", link.slug];
    conditions.push({ field: "attributes", key: `ag.links.${name}.${field}`, value });
  }
  return conditions;
}

async function writeSimpleTrace(
  db: Database,
  config: TracingConfig,
  projectId: string,
  input: SimpleTraceInput,
  ids: { traceId: string; spanId: string; replace?: string },
) {
  const named = Array.isArray(input.links) || !isObject(input.links) ? [] : Object.entries(input.links);
  const spanLinks = Array.isArray(input.links)
    ? input.links
    : named.flatMap(([key, link]) =>
        isSpanLink(link) ? [{ trace_id: link.trace_id, span_id: link.span_id, attributes: { key } }] : [],
      );
  const links = spanLinks.length ? spanLinks : undefined;
  // Links to entities have no span to point at: they are kept under their name in `ag.links`.
  const entityLinks = Object.fromEntries(named.filter(([, link]) => !isSpanLink(link)));
  const evaluatorSlug = input.references?.evaluator?.slug;
  const flags = { origin: input.origin ?? "custom", kind: input.kind ?? "adhoc", channel: input.channel ?? "api" };
  const span = {
    trace_id: ids.traceId,
    span_id: ids.spanId,
    span_name: typeof evaluatorSlug === "string" && evaluatorSlug ? evaluatorSlug : "annotation",
    attributes: {
      ag: {
        type: { span: "task" },
        data: input.data,
        flags,
        ...(input.references ? { references: input.references } : {}),
        ...(Object.keys(entityLinks).length ? { links: entityLinks } : {}),
        ...(input.tags ? { tags: input.tags } : {}),
        ...(input.meta ? { meta: input.meta } : {}),
      },
    },
    ...(links ? { links } : {}),
  };
  const parsed = parseTracingRequest({ spans: [span] });
  if (parsed.dropped.length > 0)
    throw new BadRequestError(
      `The trace does not make a valid span: ${parsed.dropped[0].reason}`,
      "invalid_simple_trace",
    );
  await acceptSpans(db, config, projectId, parsed, ids.replace ? { replaceTraces: [ids.replace] } : {});
  const stored = parsed.spans[0];
  return {
    count: 1,
    trace: {
      trace_id: traceIdToWire(stored.trace_id),
      span_id: spanIdToWire(stored.span_id),
      ...flags,
      data: input.data,
      ...(input.references ? { references: input.references } : {}),
      // In the shape they were sent: a named map stays a map.
      ...(input.links ? { links: input.links } : {}),
      ...(input.tags ? { tags: input.tags } : {}),
      ...(input.meta ? { meta: input.meta } : {}),
    },
  };
}

async function loadRoot(db: Database, projectId: string, rawId: string): Promise<SpanRow | undefined> {
  const traceId = storedTraceId(rawId);
  const spans = (await loadTraces(db, projectId, [traceId])).get(traceId);
  return spans ? rootOf(spans) : undefined;
}

const rootOf = (spans: SpanRow[]) => spans.find((s) => !s.parent_id) ?? spans[0];

/** A stored span as the simple trace it was written from: references and named links back as maps. */
function simpleTraceOf(row: SpanRow) {
  const ag = (isObject(row.attributes.ag) ? row.attributes.ag : {}) as Record<string, unknown>;
  const flags = (isObject(ag.flags) ? ag.flags : {}) as Record<string, string>;
  const keyed = <T extends { attributes?: Record<string, unknown> }>(list: T[] | null) => {
    if (!list?.length) return undefined;
    if (!list.every((item) => typeof item.attributes?.key === "string")) return list;
    return Object.fromEntries(list.map(({ attributes, ...rest }) => [attributes!.key as string, rest]));
  };
  return withoutEmpty({
    trace_id: traceIdToWire(row.trace_id),
    span_id: spanIdToWire(row.span_id),
    origin: flags.origin as SimpleTraceInput["origin"],
    kind: flags.kind as SimpleTraceInput["kind"],
    channel: flags.channel as SimpleTraceInput["channel"],
    data: (isObject(ag.data) ? ag.data : {}) as Record<string, unknown>,
    references: keyed(row.references as (Ref & { attributes?: Record<string, unknown> })[] | null) as
      Record<string, Ref> | undefined,
    links: linksOf(keyed(row.links as Link[] | null), ag.links),
    tags: isObject(ag.tags) ? (ag.tags as Record<string, unknown>) : undefined,
    meta: isObject(ag.meta) ? (ag.meta as Record<string, unknown>) : undefined,
  });
}

/** Span links (a named map or a list) with the entity links stored under `ag.links` merged into the map. */
function linksOf(spanLinks: Link[] | Record<string, unknown> | undefined, entity: unknown) {
  if (!isObject(entity) || Object.keys(entity).length === 0) return spanLinks as SimpleTraceInput["links"];
  if (Array.isArray(spanLinks)) return spanLinks as SimpleTraceInput["links"];
  return { ...(spanLinks ?? {}), ...entity } as SimpleTraceInput["links"];
}

function withoutEmpty<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

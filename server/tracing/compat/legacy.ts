import { BadRequestError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { isObject } from "../attributes";
import { spanIdToWire, storedTraceId, traceIdToWire } from "../ids";
import { deleteTraceNow } from "../delete-trace";
import { queryTracePage, querySpanPage } from "../query/run-query";
import { parseWindowing } from "../query/windowing";
import { loadTraces } from "../store/read-spans";
import { spanToWire, traceToWire } from "../wire";

/**
 * The reference implementation's deprecated `/tracing/...` read and delete routes, kept so its SDKs
 * work unchanged: traces come back as a map keyed by trace id
 * (`{traces: {<hex>: {spans: {...}}}}`).
 */
function traceMap(entries: { traceId: string; spans: Parameters<typeof traceToWire>[1] }[]) {
  return Object.fromEntries(
    entries.map(({ traceId, spans }) => [traceIdToWire(traceId), { spans: traceToWire(traceId, spans).spans }]),
  );
}

/** GET /tracing/traces/{id}: `{count, traces: {<hex>: {spans}}}`, or `{count: 0}`. */
export async function legacyFetchTrace(db: Database, projectId: string, raw: string) {
  const id = storedTraceId(raw);
  const spans = (await loadTraces(db, projectId, [id])).get(id);
  return spans ? { count: 1, traces: traceMap([{ traceId: id, spans }]) } : { count: 0 };
}

/**
 * DELETE /tracing/traces/{id}: a hard delete, done before the answer (deleteTraceNow): the spans
 * still queued for the trace go with it, and a repeat answers count 0.
 */
export async function legacyDeleteTrace(db: Database, projectId: string, raw: string) {
  const { spans } = await deleteTraceById(db, projectId, raw);
  return {
    count: spans.length,
    links: spans.map((s) => ({ trace_id: traceIdToWire(s.trace_id), span_id: spanIdToWire(s.span_id) })),
  };
}

/** Both DELETE doors (this one, DELETE /traces/{id}): the path id checked, then deleteTraceNow. */
export async function deleteTraceById(db: Database, projectId: string, raw: string) {
  const traceId = storedTraceId(raw);
  return { traceId, ...(await deleteTraceNow(db, projectId, traceId)) };
}

/** DELETE /traces/{id}: `{count, trace_id}`, count 1 when the trace had spans (stored or queued), else 0. */
export async function deleteTrace(db: Database, projectId: string, raw: string) {
  const { traceId, spans } = await deleteTraceById(db, projectId, raw);
  return { count: spans.length > 0 ? 1 : 0, trace_id: traceIdToWire(traceId) };
}

/**
 * POST /tracing/spans/query: flat keys (`focus`, `format`, `oldest`, `newest`, `limit`, `rate`,
 * `filter` as an object or a JSON string) in the body or the query string; the new-style
 * `filtering`/`windowing`/`formatting` are read too.
 */
export async function legacyQuery(
  db: Database,
  projectId: string,
  body: Record<string, unknown>,
  search: URLSearchParams,
) {
  const flat: Record<string, unknown> = { ...Object.fromEntries(search), ...body };
  let filtering = flat.filtering ?? flat.filter;
  if (typeof filtering === "string") {
    try {
      filtering = JSON.parse(filtering);
    } catch {
      throw new BadRequestError("'filter' is not valid JSON", "invalid_filtering");
    }
  }
  const number = (v: unknown) =>
    typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v;
  const windowing = isObject(flat.windowing)
    ? flat.windowing
    : { newest: flat.newest, oldest: flat.oldest, limit: number(flat.limit), rate: number(flat.rate), next: flat.next };
  const formatting = isObject(flat.formatting) ? flat.formatting : {};
  const focus = formatting.focus ?? flat.focus ?? "trace";
  if (focus !== "trace" && focus !== "span")
    throw new BadRequestError("'focus' must be trace or span", "invalid_formatting");
  const format = formatting.format ?? flat.format ?? "agenta";
  if (format !== "agenta")
    throw new BadRequestError(
      "'format' must be agenta: spans come in this service's shape; the OpenTelemetry format is not served",
      "invalid_formatting",
    );
  const window = parseWindowing(windowing, focus);
  if (focus === "span") {
    const page = await querySpanPage(db, projectId, filtering, window);
    return { count: page.spans.length, spans: page.spans.map(spanToWire) };
  }
  const page = await queryTracePage(db, projectId, filtering, window);
  return { count: page.traces.length, traces: traceMap(page.traces) };
}

import { expect } from "vitest";
import { DOMAIN_NAMES, domainKeys, type DomainKeys, type DomainName } from "@/server/versioning/domains";
import { createTestApp, type TestApp, type TestResponse } from "../helpers/test-app";

export { DOMAIN_NAMES, domainKeys, type DomainKeys, type DomainName };
export const DEPLOYABLE_DOMAINS = ["applications", "workflows", "evaluators"] as const satisfies readonly DomainName[];
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export { UUID_V7_PATTERN as UUID } from "@/shared/ids";
export const MISSING_ID = "01900000-0000-7000-8000-000000000000";

export interface Project {
  key: string;
  projectId: string;
  userId: string;
}

export interface Ctx extends Project {
  t: TestApp;
}

export async function setup(): Promise<Ctx> {
  const t = await createTestApp();
  return { t, ...(await t.newProject()) };
}

let unique = 0;
/** A slug no other test in the file uses. */
export function uniq(prefix = "x"): string {
  return `${prefix}-${++unique}-${Math.random().toString(36).slice(2, 7)}`;
}

/**
 * Revision data every domain accepts (only keys its data model knows: an unknown top-level key is
 * a 422) and that carries `marker` where `markerOf` reads it back: a workflow-family revision in
 * `parameters`, a testset in its `columns`, a query in its `filtering` (read only when it runs),
 * an environment as the name of an entry that deploys nothing (`{}`, stored as sent).
 */
export function dataFor(domain: DomainName, marker: unknown): Record<string, unknown> {
  if (domain === "environments") return { references: { [`marker-${String(marker)}`]: {} } };
  if (domain === "testsets") return { testcases: [], columns: [String(marker)] };
  if (domain === "queries") return { filtering: { marker: String(marker) } };
  return { parameters: { prompt: `p${String(marker)}`, marker: String(marker) } };
}

/** The marker `dataFor` put in a revision's data, as text. */
export function markerOf(data: Record<string, any>): string | undefined {
  if (data.references) {
    const key = Object.keys(data.references).find((k) => k.startsWith("marker-"));
    return key?.slice("marker-".length);
  }
  if (Array.isArray(data.columns)) return data.columns[0];
  if (data.filtering) return data.filtering.marker;
  return data.parameters?.marker;
}

export function expectStatus(res: TestResponse, status: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
}

export interface Created {
  artifact: { id: string; slug: string; [k: string]: unknown };
  variant: { id: string; slug: string; [k: string]: unknown };
  revision?: { id: string; slug: string; version: string; data: Record<string, any>; [k: string]: unknown };
}

/**
 * POST /api/<domain>/ and unwrap the artifact, its first variant and (with data) revision 1. An
 * artifact created without data has no variant (as in the compat API), so the helper then creates
 * the `default` variant itself, the way a reference client does.
 */
export async function createArtifact(
  c: Project & { t: TestApp },
  domain: DomainName,
  fields: Record<string, unknown> = {},
  key = c.key,
): Promise<Created> {
  const keys = domainKeys(domain);
  const res = await c.t.call("POST", `/api/${domain}/`, {
    key,
    body: { [keys.one]: { name: uniq(keys.one), ...fields } },
  });
  expectStatus(res, 200);
  const artifact = res.body[keys.one];
  if (res.body[keys.variant]) return { artifact, variant: res.body[keys.variant], revision: res.body[keys.revision] };
  const variant = await c.t.call("POST", `/api/${domain}/variants/`, {
    key,
    body: { [keys.variant]: { [keys.artifactId]: artifact.id, slug: "default" } },
  });
  expectStatus(variant, 200);
  return { artifact, variant: variant.body[keys.variant] };
}

/** POST /api/<domain>/revisions/commit with the `<domain>_revision_commit` wrapper. */
export async function commit(
  c: Ctx,
  domain: DomainName,
  variantId: string,
  data: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const keys = domainKeys(domain);
  const res = await c.t.call("POST", `/api/${domain}/revisions/commit`, {
    key: c.key,
    body: { [keys.commit]: { [keys.variantId]: variantId, data, ...extra } },
  });
  expectStatus(res, 200);
  return res.body[keys.revision] as {
    id: string;
    slug: string;
    version: string;
    data: Record<string, unknown>;
    [k: string]: unknown;
  };
}

export async function retrieve(c: Ctx, domain: DomainName, body: Record<string, unknown>, key = c.key) {
  return c.t.call("POST", `/api/${domain}/revisions/retrieve`, { key, body });
}

export interface WireEvent {
  event_id: string;
  event_type: string;
  timestamp: string;
  created_at: string;
  attributes: Record<string, any>;
  project_id: string;
}

/** The project's events of one type, newest first. */
export async function eventsOf(c: Ctx, type: string, limit = 100, key = c.key): Promise<WireEvent[]> {
  const res = await c.t.call("POST", "/api/events/query", { key, body: { event_type: type, windowing: { limit } } });
  expectStatus(res, 200);
  return res.body.events;
}

export async function countEvents(c: Ctx, type: string, key = c.key): Promise<number> {
  return (await eventsOf(c, type, 1000, key)).length;
}

export async function lastEvent(c: Ctx, type: string): Promise<WireEvent> {
  const [event] = await eventsOf(c, type, 1);
  expect(event, `an event of type ${type}`).toBeDefined();
  return event;
}

/** `{<one>: {id, slug}, <one>_variant: {id, slug}, <one>_revision: {id, slug, version}}` of a wire revision. */
export function refsOfRevision(domain: DomainName, revision: Record<string, any>) {
  const keys = domainKeys(domain);
  return {
    [keys.one]: { id: revision[keys.artifactId], slug: revision[keys.artifactSlug] },
    [keys.variant]: { id: revision[keys.variantId], slug: revision[keys.variantSlug] },
    [keys.revision]: { id: revision.id, slug: revision.slug, version: revision.version },
  };
}

/** A revision as a retrieve answers it: a testset's lists its rows' ids beside them (`include_testcase_ids`). */
export function asRetrieved<T extends { data?: Record<string, any> }>(domain: DomainName, revision: T): T {
  if (domain !== "testsets" || !revision.data) return revision;
  const rows = (revision.data.testcases ?? []) as { id: string }[];
  return { ...revision, data: { ...revision.data, testcase_ids: rows.map((r) => r.id) } };
}

/**
 * Resolves once `holds()` is true: checked now (without tags) and again each time the cache hears
 * something (a change notification with its tags, or `null` for listening (again)), never on a
 * timer. `ms` only bounds a stall.
 */
export function whenCacheHears(
  cache: { subscribe(subscriber: (tags: string[] | null) => void): () => void },
  holds: (tags?: string[] | null) => boolean,
  what: string,
  ms = 10_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      clearTimeout(timer);
      unsubscribe();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => finish(new Error(`the cache never heard ${what} within ${ms} ms`)), ms);
    const unsubscribe = cache.subscribe((tags) => {
      if (holds(tags)) finish();
    });
    if (holds()) finish();
  });
}

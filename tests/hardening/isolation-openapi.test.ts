import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { UUID_PATTERN } from "@/shared/ids";
import { plantAged } from "../retention/plant";
import { createTestApp, type TestApp, type TestResponse } from "../helpers/test-app";
import { createArtifact, dataFor, DOMAIN_NAMES, uniq, type Ctx } from "../versioning/helpers";

// Project isolation, swept over the OpenAPI document rather than a list: project A is seeded with
// a resource of every area, marked with a string nobody else has; project B, with its own key,
// calls every API-key operation of the document with A's real ids in the path and in the body.
// No answer may be a 5xx, no answer to B may hold A's marker or an A id B did not send itself,
// and everything A reads afterwards is what it read before (B changed nothing of A's).

const MARK = `isolation-${randomBytes(6).toString("hex")}`;
/** Any id in a text: a UUID (shared/ids.ts's pattern, unanchored) or a 32-hex trace id. */
const ID = new RegExp(`${UUID_PATTERN.source.slice(1, -1)}|\\b[0-9a-f]{32}\\b`, "gi");

let t: TestApp;
let a: Ctx;
let b: Ctx;
beforeAll(async () => {
  // A provider the agents resolve to (never called: B's turns are refused, A runs none).
  t = await createTestApp({ providerEnv: { openai: { key: "sk-isolation", baseUrl: "http://127.0.0.1:9/v1" } } });
  a = { t, ...(await t.newProject("a")) };
  b = { t, ...(await t.newProject("b")) };
});
afterAll(() => t.close());

interface Operation {
  method: string;
  path: string;
  bodySchema?: Schema;
}
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
};

/** Every operation B can call with its key: the API-key operations of the document. */
function operationsOf(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries<any>(methods)
      .filter(([, op]) => op.security?.[0]?.ApiKey)
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        bodySchema: op.requestBody?.content?.["application/json"]?.schema,
      })),
  );
}

/** Each id an answer names, with the operation it came from (to fill the paths that share its prefix). */
class IdHarvest {
  readonly sources = new Map<string, Set<string>>();
  add(source: string, body: unknown): void {
    for (const id of JSON.stringify(body ?? null).match(ID) ?? []) {
      if (!this.sources.has(source)) this.sources.set(source, new Set());
      this.sources.get(source)!.add(id);
    }
  }
  all(): Set<string> {
    return new Set([...this.sources.values()].flatMap((ids) => [...ids]));
  }
  /** Ids from the sources sharing the longest path prefix with `path` (before its first parameter). */
  near(path: string, exclude: Set<string>, count: number): string[] {
    const prefix = path.split("{")[0].split("/").filter(Boolean);
    const scored = [...this.sources].map(([source, ids]) => {
      const parts = source.split(" ")[1].split("/").filter(Boolean);
      let shared = 0;
      while (shared < prefix.length && parts[shared] === prefix[shared]) shared++;
      return { shared, ids: [...ids].filter((id) => !exclude.has(id)) };
    });
    scored.sort((x, y) => y.shared - x.shared);
    return [...new Set(scored.flatMap((s) => s.ids))].slice(0, count);
  }
}

/** A body of the schema's shape: ids where ids go (each field's own A id in turn), "x" for other text. */
function bodyOf(schema: Schema | undefined, ids: () => string, depth = 0): unknown {
  if (!schema || depth > 5) return ids();
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (variant) return bodyOf(variant, ids, depth);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== "null") : schema.type;
  if (type === "object" || schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(schema.properties ?? {})) {
      const idLike = /(^|_)ids?$/.test(name) || child.format === "uuid";
      out[name] =
        idLike && child.type !== "object"
          ? child.type === "array"
            ? [ids(), ids()]
            : ids()
          : bodyOf(child, ids, depth + 1);
    }
    return out;
  }
  if (type === "array") return [bodyOf(schema.items, ids, depth + 1)];
  if (type === "integer" || type === "number") return 1;
  if (type === "boolean") return false;
  if (schema.format === "uuid") return ids();
  return "x";
}

const fill = (path: string, values: string[]) => {
  let i = 0;
  return path.replace(/\{\w+\}/g, () => values[Math.min(i++, values.length - 1)]);
};

async function expectOk(res: TestResponse, what: string): Promise<TestResponse> {
  expect(res.status, `${what}: ${JSON.stringify(res.body).slice(0, 400)}`).toBeLessThan(300);
  return res;
}

/** One resource of every area in A, each marked, through the API as its clients make them. */
async function seedA(harvest: IdHarvest): Promise<void> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await expectOk(await t.call(method, path, { key: a.key, body }), `${method} ${path}`);
    harvest.add(`${method} ${path}`, res.body);
    return res.body;
  };
  for (const domain of DOMAIN_NAMES) {
    const created = await createArtifact(a, domain, { slug: uniq(domain), data: dataFor(domain, MARK) });
    harvest.add(`POST /api/${domain}/`, created);
  }
  // An agent deployed to an environment, then a canary of its second revision there.
  const agentData = { parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" } }, marker: MARK } };
  const agent = await createArtifact(a, "workflows", { slug: uniq("agent"), data: agentData });
  harvest.add("POST /api/workflows/", agent);
  const v2 = await call("POST", "/api/workflows/revisions/commit", {
    workflow_revision_commit: {
      workflow_variant_id: agent.variant.id,
      data: { parameters: { ...agentData.parameters, v: 2 } },
    },
  });
  const env = uniq("env");
  await createArtifact(a, "environments", { slug: env });
  await call("POST", "/api/workflows/revisions/deploy", {
    workflow_revision_ref: { id: agent.revision!.id },
    environment_ref: { slug: env },
  });
  await call("POST", "/api/environments/canaries", {
    environment_ref: { slug: env },
    workflow_revision_ref: { id: v2.workflow_revision.id },
    weight: 10,
  });
  const budget = await call("POST", "/api/controls/budgets/", {
    name: MARK,
    scope: "agent",
    target_id: agent.artifact.id,
    window: "day",
    limit_usd: 100,
  });
  await call("POST", "/api/controls/allowlists/", { scope: "project", patterns: ["openai/*", `${MARK}/*`] });
  await call("POST", "/api/controls/rate-limits/", { scope: "api_key", requests_per_minute: 1000 });
  await call("POST", "/api/controls/aliases/", { name: MARK, entries: [{ provider: "openai", model: "gpt-5-mini" }] });
  await call("POST", "/api/monitors/", {
    monitor: {
      name: MARK,
      metric: { name: "budget_use", budget_id: budget.id ?? budget.budget?.id },
      window_seconds: 300,
      operator: "above",
      threshold: 80,
    },
  });
  await call("POST", "/api/automations/", {
    automation: {
      kind: "schedule",
      name: MARK,
      cron: "30 2 * * *",
      references: { workflow_revision: { id: agent.revision!.id } },
      input: { messages: [{ role: "user", content: MARK }] },
    },
  });
  await call("POST", "/api/webhooks/subscriptions/", {
    subscription: { name: MARK, data: { url: `https://example.com/${MARK}` } },
  });
  await call("POST", "/api/vault/v1/secrets/", {
    header: { name: MARK },
    secret: { kind: "secret", data: { value: MARK } },
  });
  await call("PUT", "/api/pricing/prices", {
    provider: "custom",
    model: MARK,
    usd_per_million_tokens: { prompt: 1, completion: 2 },
  });
  await call("PUT", "/api/redaction/settings", {
    kinds: ["email"],
    patterns: [{ name: MARK, pattern: "ORD-[0-9]{6}" }],
    model_input: false,
  });
  await call("PUT", "/api/retention/settings", {
    traces_days: 30,
    runs_days: 30,
    chat_sessions_days: 30,
    events_days: 30,
    evaluation_results_days: 30,
  });
  const trace = randomBytes(16).toString("hex");
  await call("POST", "/api/tracing/spans/ingest", {
    spans: [
      {
        trace_id: trace,
        span_id: randomBytes(8).toString("hex"),
        span_name: MARK,
        start_time: new Date().toISOString(),
        attributes: { marker: MARK },
      },
    ],
  });
  // Runs with their event logs, a chat session, a finished evaluation, an event and its delivery.
  harvest.add("planted /api/", await plantAged(t.context.db, a.projectId, agent.artifact.id, new Date()));
}

it("B, with A's ids in every path and body of the document, reads and changes nothing of A's", async () => {
  const doc = (await t.call("GET", "/api/openapi.json")).body;
  const operations = operationsOf(doc).filter((op) => !op.path.startsWith("/api/openapi"));
  const areas = ["analytics", "controls", "monitors", "automations", "canaries", "retention", "redaction", "audit"];
  for (const area of areas)
    expect(
      operations.some((op) => op.path.includes(area)),
      area,
    ).toBe(true);

  const harvestA = new IdHarvest();
  await seedA(harvestA);

  // What each project reads without naming an id: lists, and queries with an empty body.
  const reads = operations.filter(
    (op) => !op.path.includes("{") && (op.method === "GET" || (op.method === "POST" && /\/(query|log)$/.test(op.path))),
  );
  const readAll = async (who: Ctx, harvest: IdHarvest) => {
    const seen = new Map<string, string>();
    for (const op of reads) {
      const res = await t.call(op.method, op.path, { key: who.key, body: op.method === "POST" ? {} : undefined });
      if (res.status >= 500) throw new Error(`${op.method} ${op.path} -> ${res.status} ${JSON.stringify(res.body)}`);
      if (res.status < 300) {
        harvest.add(`${op.method} ${op.path}`, res.body);
        seen.set(`${op.method} ${op.path}`, JSON.stringify(res.body ?? null));
      }
    }
    return seen;
  };
  // Ids B has too (its own project, the built-in catalogs) are not A's.
  const harvestB = new IdHarvest();
  await readAll(b, harvestB);
  const shared = harvestB.all();
  // A's detail reads, one per parameterised GET with A's nearest ids: the nested ids (a run's scenarios).
  const detailsOfA = async () => {
    const seen = new Map<string, string>();
    for (const op of operations.filter((o) => o.method === "GET" && o.path.includes("{"))) {
      const path = fill(op.path, harvestA.near(op.path, shared, 1).concat("0190e4b0-0000-7000-8000-000000000000"));
      const res = await t.call("GET", path, { key: a.key });
      if (res.status < 300) {
        harvestA.add(`GET ${op.path}`, res.body);
        seen.set(`GET ${path}`, JSON.stringify(res.body ?? null));
      }
    }
    return seen;
  };
  const before = new Map([...(await readAll(a, harvestA)), ...(await detailsOfA())]);
  const idsOfA = new Set([...harvestA.all()].filter((id) => !shared.has(id)));
  expect(idsOfA.size).toBeGreaterThan(30);

  const failures: string[] = [];
  let requests = 0;
  for (const op of operations) {
    const near = harvestA.near(op.path, shared, 3);
    const candidates = near.length ? near : [...idsOfA].slice(0, 1);
    const paths = op.path.includes("{")
      ? [...new Set([fill(op.path, candidates), fill(op.path, candidates.slice(1).concat(candidates))])]
      : [op.path];
    for (const path of paths) {
      let turn = 0;
      const ids = () => candidates[turn++ % candidates.length];
      const bodies = op.method === "GET" || op.method === "DELETE" ? [undefined] : [bodyOf(op.bodySchema, ids), {}];
      for (const body of bodies) {
        requests++;
        let res: TestResponse;
        try {
          res = await t.call(op.method, path, { key: b.key, body });
        } catch (error) {
          // The test client's contract check (tests/helpers/response-contract.ts): kept, the sweep goes on.
          failures.push((error as Error).message);
          continue;
        }
        const text = JSON.stringify(res.body ?? "");
        const sent = new Set(`${path} ${JSON.stringify(body ?? "")}`.match(ID) ?? []);
        const leaked = [...new Set(text.match(ID) ?? [])].filter((id) => idsOfA.has(id) && !sent.has(id));
        const what = `${op.method} ${path} ${JSON.stringify(body ?? "").slice(0, 200)} -> ${res.status}`;
        if (res.status >= 500) failures.push(`${what}: ${text.slice(0, 300)}`);
        if (text.includes(MARK)) failures.push(`${what}: B read A's content: ${text.slice(0, 300)}`);
        if (leaked.length) failures.push(`${what}: B read A's ids ${leaked.join(", ")}`);
      }
    }
  }
  expect(failures).toEqual([]);

  // A reads what it read before: B changed, archived or deleted nothing of A's.
  const after = new Map([...(await readAll(a, new IdHarvest())), ...(await detailsOfA())]);
  const volatile = /"(last_used_at|updated_at|next_fire_at)":"[^"]*"/g;
  // A's own reads add read events to its log, and a canary's comparison is of live figures:
  // both change between A's two readings whatever B does.
  const ownDoing = /^POST \/api\/events\/query$|\/comparison$/;
  const changed = [...before]
    .filter(([what]) => !ownDoing.test(what))
    .filter(([what, body]) => after.get(what)?.replace(volatile, "") !== body.replace(volatile, ""))
    .map(([what]) => what);
  expect(changed).toEqual([]);
  console.info(`isolation: ${operations.length} operations, ${requests} requests as B, ${idsOfA.size} ids of A`);
}, 240_000);

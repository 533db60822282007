import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "@/server/boot";
import {
  asRetrieved,
  DOMAIN_NAMES,
  MISSING_ID,
  commit,
  countEvents,
  createArtifact,
  dataFor,
  domainKeys,
  eventsOf,
  expectStatus,
  retrieve,
  setup,
  type Created,
  type Ctx,
} from "./helpers";

let a: Ctx;
let b: Ctx;
beforeAll(async () => {
  a = await setup();
  b = { ...a, ...(await a.t.newProject("other")) };
});
afterAll(() => a.t.close());

describe.each(DOMAIN_NAMES)("project isolation in %s", (domain) => {
  const keys = domainKeys(domain);
  const base = `/api/${domain}`;
  let mine: Created;

  beforeAll(async () => {
    mine = await createArtifact(a, domain, { slug: `shared-${domain}`, data: dataFor(domain, "a") });
  });

  it("another project cannot read, list, change or branch this project's rows", async () => {
    const rev = mine.revision!;
    const asB = (method: string, path: string, body?: unknown) => a.t.call(method, path, { key: b.key, body });
    const notFound: [string, string, unknown?][] = [
      ["GET", `${base}/${mine.artifact.id}`],
      ["PUT", `${base}/${mine.artifact.id}`, { [keys.one]: { name: "hijack" } }],
      ["POST", `${base}/${mine.artifact.id}/archive`],
      ["GET", `${base}/variants/${mine.variant.id}`],
      ["POST", `${base}/variants/`, { [keys.variant]: { [keys.artifactId]: mine.artifact.id, slug: "intruder" } }],
      ["POST", `${base}/variants/${mine.variant.id}/archive`],
      ["POST", `${base}/variants/fork`, { [keys.revisionRef]: { id: rev.id } }],
      ["GET", `${base}/revisions/${rev.id}`],
      ["POST", `${base}/revisions/${rev.id}/archive`],
      ["POST", `${base}/revisions/retrieve`, { [keys.revisionRef]: { id: rev.id } }],
      ["POST", `${base}/revisions/retrieve`, { [keys.revisionRef]: { slug: rev.slug } }],
      ["POST", `${base}/revisions/retrieve`, { [keys.variantRef]: { id: mine.variant.id } }],
      ["POST", `${base}/revisions/resolve`, { [keys.revisionRef]: { id: rev.id } }],
      ["POST", `${base}/revisions/log`, { [keys.one]: { [keys.variantId]: mine.variant.id } }],
      ["POST", `${base}/revisions/log`, { [keys.revisions]: { [keys.revisionId]: rev.id } }],
      [
        "POST",
        `${base}/revisions/commit`,
        { [keys.commit]: { [keys.variantId]: mine.variant.id, data: dataFor(domain, "b") } },
      ],
    ];
    for (const [method, path, body] of notFound) {
      const res = await asB(method, path, body);
      // Reads of nothing answer {count: 0} (the compat API's form), a fork of nothing 400, writes 404.
      const read = method === "GET" || /\/revisions\/(retrieve|log)$/.test(path);
      const expected = read ? 200 : path.endsWith("/fork") ? 400 : 404;
      expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBe(expected);
      if (read) expect(res.body.count).toBe(0);
    }
    for (const [path, body, listKey] of [
      [`${base}/query`, { [keys.one]: { ids: [mine.artifact.id] } }, domain],
      [`${base}/variants/query`, { [keys.refs]: [{ id: mine.artifact.id }], include_archived: true }, keys.variants],
      [`${base}/revisions/query`, { [keys.revision]: { ids: [rev.id] }, include_archived: true }, keys.revisions],
    ] as const) {
      const res = await asB("POST", path, body);
      expect(res.body, path).toEqual({ count: 0, [listKey]: [] });
    }

    // The same slug in the other project is the other project's own artifact.
    const theirs = await createArtifact(b, domain, { slug: `shared-${domain}`, data: dataFor(domain, "b") });
    const res = await retrieve(b, domain, { [keys.ref]: { slug: `shared-${domain}` } });
    expect(res.body[keys.revision].id).toBe(theirs.revision!.id);
    // Nothing of project A changed.
    const still = await retrieve(a, domain, { [keys.ref]: { slug: `shared-${domain}` } });
    expect(still.body[keys.revision]).toEqual(asRetrieved(domain, rev));
  });
});

describe("isolation of environments, embeds, testcases and events", () => {
  it("keeps deploys, embeds, testcases and events within the project", async () => {
    const app = await createArtifact(a, "applications", { data: dataFor("applications", 1) });
    const wf = await createArtifact(a, "workflows", { data: { parameters: { x: "secret" } } });
    const ts = await createArtifact(a, "testsets", { data: { testcases: [{ q: "private" }] } });
    const testcaseId = (ts.revision!.data.testcases as { id: string }[])[0].id;
    await a.t.call("POST", "/api/applications/revisions/deploy", {
      key: a.key,
      body: { application_revision_ref: { id: app.revision!.id }, environment_ref: { slug: "staging" } },
    });
    const envA = await a.t.call("POST", "/api/environments/query", {
      key: a.key,
      body: { environment: { slug: "staging" } },
    });
    const stagingA = envA.body.environments[0].id;

    // B cannot deploy A's revision, or deploy into A's environment.
    const own = await createArtifact(b, "applications", { data: dataFor("applications", 2) });
    expectStatus(
      await b.t.call("POST", "/api/applications/revisions/deploy", {
        key: b.key,
        body: { application_revision_ref: { id: app.revision!.id }, environment_ref: { slug: "staging" } },
      }),
      404,
    );
    expectStatus(
      await b.t.call("POST", "/api/applications/revisions/deploy", {
        key: b.key,
        body: { application_revision_ref: { id: own.revision!.id }, environment_ref: { id: stagingA } },
      }),
      404,
    );
    // B's staging is its own, with nothing deployed; A's staging is invisible.
    expectStatus(
      await retrieve(b, "applications", {
        environment_ref: { slug: "staging" },
        application_ref: { slug: app.artifact.slug },
      }),
      404,
    );
    expectStatus(
      await retrieve(b, "applications", { environment_ref: { id: stagingA }, key: `${app.artifact.slug}.revision` }),
      404,
    );
    // An environment entry of B cannot point at A's revision.
    const envB = await b.t.call("POST", "/api/environments/query", {
      key: b.key,
      body: { environment: { slug: "staging" } },
    });
    const entry = await b.t.call("POST", "/api/environments/revisions/commit", {
      key: b.key,
      body: {
        environment_revision_commit: {
          environment_id: envB.body.environments[0].id,
          data: { references: { k: { application_revision: { id: app.revision!.id } } } },
        },
      },
    });
    expectStatus(entry, 404);

    // Embeds resolve within the project only.
    const embedding = await createArtifact(b, "applications", {
      data: {
        parameters: {
          x: {
            "@svc.embed": {
              "@svc.references": { workflow_revision: { id: wf.revision!.id } },
              "@svc.selector": { path: "parameters.x" },
            },
          },
        },
      },
    });
    expectStatus(
      await retrieve(b, "applications", { application_revision_ref: { id: embedding.revision!.id }, resolve: true }),
      404,
    );

    // Testcases.
    expectStatus(await b.t.call("GET", `/api/testcases/${testcaseId}`, { key: b.key }), 404);
    expect((await b.t.call("GET", `/api/testcases/?testset_id=${ts.artifact.id}`, { key: b.key })).body).toEqual({
      count: 0,
      testcases: [],
    });
    expect(
      (await b.t.call("POST", "/api/testcases/query", { key: b.key, body: { testcase_ids: [testcaseId] } })).body,
    ).toEqual({ count: 0, testcases: [] });
    expectStatus(
      await b.t.call("POST", "/api/testcases/query", { key: b.key, body: { testset_revision_id: ts.revision!.id } }),
      404,
    );

    // Events: B sees only its own.
    const eventsB = await b.t.call("POST", "/api/events/query", { key: b.key, body: { windowing: { limit: 1000 } } });
    for (const e of eventsB.body.events) expect(e.project_id).toBe(b.projectId);
    const idsA = new Set((await eventsOf(a, "applications.revisions.committed", 1000)).map((e) => e.event_id));
    for (const e of eventsB.body.events) expect(idsA.has(e.event_id)).toBe(false);
  });
});

describe("nothing stored is lost or half-written", () => {
  it("a failed commit stores no revision, no event and uses up no version", async () => {
    const { variant, revision } = await createArtifact(a, "applications", { data: dataFor("applications", 1) });
    const committed = await countEvents(a, "applications.revisions.committed");
    const taken = await a.t.call("POST", "/api/applications/revisions/commit", {
      key: a.key,
      body: {
        application_revision_commit: {
          application_variant_id: variant.id,
          slug: revision!.slug,
          data: dataFor("applications", 2),
        },
      },
    });
    expectStatus(taken, 409);
    expect(await countEvents(a, "applications.revisions.committed")).toBe(committed);
    const next = await commit(a, "applications", variant.id, dataFor("applications", 2));
    expect(next.version).toBe("2");
  });

  it("a failed create stores no artifact, no variant and no event", async () => {
    const committed = await countEvents(a, "environments.revisions.committed");
    const res = await a.t.call("POST", "/api/environments/", {
      key: a.key,
      body: {
        environment: {
          slug: "half-written",
          data: { references: { k: { application_revision: { id: MISSING_ID } } } },
        },
      },
    });
    expectStatus(res, 404);
    const q = await a.t.call("POST", "/api/environments/query", {
      key: a.key,
      body: { environment: { slug: "half-written" }, include_archived: true },
    });
    expect(q.body.count).toBe(0);
    expect(await countEvents(a, "environments.revisions.committed")).toBe(committed);
    // The slug is still free.
    const retry = await a.t.call("POST", "/api/environments/", {
      key: a.key,
      body: { environment: { slug: "half-written" } },
    });
    expectStatus(retry, 200);
  });
});

describe("bad input is never a 500", () => {
  const GENERIC = [
    "POST /",
    "GET /{id}",
    "PUT /{id}",
    "POST /query",
    "POST /{id}/archive",
    "POST /{id}/unarchive",
    "POST /variants/",
    "GET /variants/{id}",
    "POST /variants/query",
    "POST /variants/fork",
    "POST /variants/{id}/archive",
    "POST /variants/{id}/unarchive",
    "POST /revisions/commit",
    "POST /revisions/retrieve",
    "POST /revisions/resolve",
    "POST /revisions/log",
    "POST /revisions/query",
    "GET /revisions/{id}",
    "POST /revisions/{id}/archive",
    "POST /revisions/{id}/unarchive",
  ];
  const expected = [
    ...DOMAIN_NAMES.flatMap((d) => GENERIC.map((r) => r.replace(" /", ` /api/${d}/`))),
    ...["applications", "workflows", "evaluators"].map((d) => `POST /api/${d}/revisions/deploy`),
    "GET /api/testcases/{id}",
    "GET /api/testcases/",
    "POST /api/testcases/query",
    "POST /api/events/query",
  ];
  const routes = apiRoutes.filter((r) => expected.includes(`${r.method} ${r.path}`));

  it("covers every versioning route", () => {
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([...expected].sort());
  });

  it("answers malformed ids, JSON and bodies on every route with 4xx", async () => {
    const failures: string[] = [];
    const check = (label: string, status: number, allowed: number[]) => {
      if (!allowed.includes(status)) failures.push(`${label}: ${status}`);
    };
    for (const route of routes) {
      const path = route.path.replace("{id}", MISSING_ID);
      const label = `${route.method} ${route.path}`;
      if (route.path.includes("{id}")) {
        const res = await a.t.call(route.method, route.path.replace("{id}", "not-a-uuid"), {
          key: a.key,
          body: route.body ? {} : undefined,
        });
        check(`${label} bad id`, res.status, [400]);
        if (res.status === 400) expect(res.body.code).toBe("invalid_path_parameter");
      }
      check(
        `${label} no key`,
        (await a.t.call(route.method, path, { body: route.body ? {} : undefined })).status,
        [401],
      );
      if (!route.body) continue;
      const json = { "content-type": "application/json" };
      check(
        `${label} broken JSON`,
        (await a.t.call(route.method, path, { key: a.key, rawBody: '{"a": [1,', headers: json })).status,
        [400],
      );
      for (const body of [[], "text", 42, { a: { b: { c: [null, true, "\u00e9"] } } }]) {
        const res = await a.t.call(route.method, path, { key: a.key, body });
        check(`${label} ${JSON.stringify(body)}`, res.status, [400, 404, 422]);
      }
      const empty = await a.t.call(route.method, path, { key: a.key, body: {} });
      check(`${label} {}`, empty.status, [200, 201, 400, 404, 422]);
    }
    expect(failures).toEqual([]);
  });
});

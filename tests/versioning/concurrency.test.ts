import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commit, createArtifact, dataFor, expectStatus, retrieve, setup, type Ctx } from "./helpers";

// PGlite is one connection and serialises everything; the guarantees are about real PostgreSQL.
describe.skipIf(!process.env.DATABASE_URL)("concurrency on PostgreSQL", () => {
  let c: Ctx;
  beforeAll(async () => {
    c = await setup();
  });
  afterAll(() => c.t.close());

  it("50 concurrent commits to one variant get versions 1..50, no gap, no duplicate, no error", async () => {
    const { artifact, variant } = await createArtifact(c, "applications");
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        c.t.call("POST", "/api/applications/revisions/commit", {
          key: c.key,
          body: {
            application_revision_commit: {
              application_variant_id: variant.id,
              message: `c${i}`,
              data: dataFor("applications", i),
            },
          },
        }),
      ),
    );
    const failed = results.filter((r) => r.status !== 200).map((r) => `${r.status} ${JSON.stringify(r.body)}`);
    expect(failed).toEqual([]);
    const versions = results.map((r) => Number(r.body.application_revision.version)).sort((x, y) => x - y);
    expect(versions).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

    // What was stored agrees: each commit's payload under its version, the variant's head at 50.
    const log = await c.t.call("POST", "/api/applications/revisions/log", {
      key: c.key,
      body: { application: { application_variant_id: variant.id } },
    });
    expect(log.body.count).toBe(50);
    expect(log.body.application_revisions.map((r: { version: string }) => r.version)).toEqual(
      Array.from({ length: 50 }, (_, i) => String(50 - i)),
    );
    const latest = await retrieve(c, "applications", { application_ref: { id: artifact.id } });
    expect(latest.body.application_revision.version).toBe("50");
    const byMessage = new Map(
      results.map((r) => [r.body.application_revision.message, r.body.application_revision.version]),
    );
    const got = await c.t.call("POST", "/api/applications/revisions/query", {
      key: c.key,
      body: { application_variant_refs: [{ id: variant.id }] },
    });
    for (const r of got.body.application_revisions) expect(byMessage.get(r.message)).toBe(r.version);
    const events = await c.t.call("POST", "/api/events/query", {
      key: c.key,
      body: { event_type: "applications.revisions.committed", windowing: { limit: 1000 } },
    });
    expect(events.body.count).toBe(50);
  });

  it("20 concurrent deploys of 20 applications to one environment lose no update", async () => {
    const env = await createArtifact(c, "environments", { slug: "race" });
    const apps = [];
    for (let i = 0; i < 20; i++)
      apps.push(await createArtifact(c, "applications", { slug: `racer-${i}`, data: dataFor("applications", i) }));
    const results = await Promise.all(
      apps.map((app) =>
        c.t.call("POST", "/api/applications/revisions/deploy", {
          key: c.key,
          body: { application_revision_ref: { id: app.revision!.id }, environment_ref: { slug: "race" } },
        }),
      ),
    );
    for (const r of results) expectStatus(r, 200);
    expect(results.map((r) => Number(r.body.environment_revision.version)).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );

    const latest = await retrieve(c, "environments", { environment_ref: { id: env.artifact.id } });
    expect(latest.body.environment_revision.version).toBe("20");
    const references = latest.body.environment_revision.data.references;
    expect(Object.keys(references).sort()).toEqual(apps.map((a) => `${a.artifact.slug}.revision`).sort());
    for (const app of apps)
      expect(references[`${app.artifact.slug}.revision`].application_revision.id).toBe(app.revision!.id);

    // Every committed event's diff created exactly one key, and the states grow one key at a time.
    const events = await c.t.call("POST", "/api/events/query", {
      key: c.key,
      body: { event_type: "environments.revisions.committed", windowing: { limit: 100, order: "ascending" } },
    });
    const mine = events.body.events.filter(
      (e: { attributes: { references: { environment: { id: string } } } }) =>
        e.attributes.references.environment.id === env.artifact.id,
    );
    expect(mine).toHaveLength(20);
    mine.forEach(
      (
        e: {
          attributes: { diff: { created: object; updated: object; deleted: object }; state: { references: object } };
        },
        i: number,
      ) => {
        expect(Object.keys(e.attributes.diff.created)).toHaveLength(1);
        expect(e.attributes.diff.updated).toEqual({});
        expect(e.attributes.diff.deleted).toEqual({});
        expect(Object.keys(e.attributes.state.references)).toHaveLength(i + 1);
      },
    );

    // And each application resolves through the environment.
    for (const app of apps.slice(0, 3)) {
      const res = await retrieve(c, "applications", {
        environment_ref: { slug: "race" },
        application_ref: { slug: app.artifact.slug },
      });
      expect(res.body.application_revision.id).toBe(app.revision!.id);
    }
  });

  it("of 10 concurrent initial-revision creates on one variant exactly one wins, the others get 409", async () => {
    const { variant } = await createArtifact(c, "queries");
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        c.t.call("POST", "/api/queries/revisions/", {
          key: c.key,
          body: { query_revision: { query_variant_id: variant.id, data: dataFor("queries", i) } },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    const log = await c.t.call("POST", "/api/queries/revisions/log", {
      key: c.key,
      body: { query_revisions: { query_variant_id: variant.id } },
    });
    expect(log.body.count).toBe(1);
  });

  it("concurrent commits to many variants, with concurrent retrieves, all succeed", async () => {
    const targets = [];
    for (let i = 0; i < 5; i++) targets.push(await createArtifact(c, "workflows", { data: dataFor("workflows", 0) }));
    const work = targets.flatMap((t) => [
      ...Array.from({ length: 6 }, (_, i) => () => commit(c, "workflows", t.variant.id, dataFor("workflows", i + 1))),
      () => retrieve(c, "workflows", { workflow_ref: { id: t.artifact.id } }).then((r) => expectStatus(r, 200)),
    ]);
    await Promise.all(work.map((f) => f()));
    for (const t of targets) {
      const res = await retrieve(c, "workflows", { workflow_ref: { id: t.artifact.id } });
      expect(res.body.workflow_revision.version).toBe("7");
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseArm } from "@/server/versioning";
import { revisionCacheFor } from "@/server/versioning/cache/revision-cache";
import { anotherInstance } from "../helpers/app-instance";
import {
  commit,
  createArtifact,
  dataFor,
  expectStatus,
  retrieve,
  setup,
  uniq,
  whenCacheHears,
  type Ctx,
} from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

/** A workflow with three revisions, v1 deployed to a fresh environment. */
async function deployed() {
  const env = await createArtifact(c, "environments", { slug: uniq("env") });
  const wf = await createArtifact(c, "workflows", { slug: uniq("wf"), data: dataFor("workflows", 1) });
  const v2 = await commit(c, "workflows", wf.variant.id, dataFor("workflows", 2));
  const v3 = await commit(c, "workflows", wf.variant.id, dataFor("workflows", 3));
  const key = `${wf.artifact.slug}.revision`;
  const deploy = await c.t.call("POST", "/api/workflows/revisions/deploy", {
    key: c.key,
    body: { workflow_revision_ref: { id: wf.revision!.id }, environment_ref: { slug: env.artifact.slug } },
  });
  expectStatus(deploy, 200);
  return { env, wf, v1: wf.revision!, v2, v3, key };
}

type Setup = Awaited<ReturnType<typeof deployed>>;

const commitEnv = (s: Setup, delta: Record<string, unknown>) =>
  c.t.call("POST", "/api/environments/revisions/commit", {
    key: c.key,
    body: { environment_revision_commit: { environment_variant_id: s.env.variant.id, delta } },
  });

const split = (s: Setup, arms: [{ id: string }, number][]) =>
  commitEnv(s, { splits: { [s.key]: arms.map(([r, weight]) => ({ weight, workflow_revision: { id: r.id } })) } });

const byEnvironment = (s: Setup) => ({
  workflow_ref: { slug: s.wf.artifact.slug },
  environment_ref: { slug: s.env.artifact.slug },
});

describe("an environment split between revisions", () => {
  it("is stored complete with the reference entry unchanged, and committed as a deploy with its event state", async () => {
    const s = await deployed();
    const res = await split(s, [
      [s.v2, 10],
      [s.v1, 90],
    ]);
    expectStatus(res, 200);
    const data = res.body.environment_revision.data;
    expect(data.references[s.key].workflow_revision.id).toBe(s.v1.id);
    expect(data.splits[s.key]).toEqual([
      expect.objectContaining({ weight: 10, workflow_revision: { id: s.v2.id, slug: s.v2.slug, version: "2" } }),
      expect.objectContaining({ weight: 90, workflow_revision: expect.objectContaining({ id: s.v1.id }) }),
    ]);
    expect(data.splits[s.key][0].workflow).toEqual({ id: s.wf.artifact.id, slug: s.wf.artifact.slug });
  });

  it("keeps the compat API's retrieve shape and says which revision served (header and retrieval_info)", async () => {
    const s = await deployed();
    const plain = await retrieve(c, "workflows", byEnvironment(s));
    expectStatus(
      await split(s, [
        [s.v2, 50],
        [s.v1, 50],
      ]),
      200,
    );
    const seen = new Set<string>();
    for (let k = 0; k < 40; k++) {
      const res = await c.t.call("POST", "/api/workflows/revisions/retrieve", {
        key: c.key,
        body: byEnvironment(s),
        headers: { "x-svc-split-key": `k-${k}` },
      });
      expectStatus(res, 200);
      expect(Object.keys(res.body).sort()).toEqual(Object.keys(plain.body).sort());
      expect(Object.keys(res.body.retrieval_info).sort()).toEqual(Object.keys(plain.body.retrieval_info).sort());
      const served = res.body.workflow_revision.id;
      if (served === s.v1.id) expect(res.body.workflow_revision).toEqual(plain.body.workflow_revision);
      expect(res.headers.get("x-svc-revision-id")).toBe(served);
      expect(res.body.retrieval_info.references.workflow_revision.id).toBe(served);
      expect(res.body.retrieval_info.key).toBe(s.key);
      seen.add(served);
    }
    expect(seen).toEqual(new Set([s.v1.id, s.v2.id]));
  });

  it("sends a key to the same revision on two instances and after a restart, as the hash says", async () => {
    const s = await deployed();
    expectStatus(
      await split(s, [
        [s.v2, 30],
        [s.v1, 70],
      ]),
      200,
    );
    const arms = [
      { weight: 30, id: s.v2.id },
      { weight: 70, id: s.v1.id },
    ];
    const keys = Array.from({ length: 60 }, (_, k) => `session-${k}`);
    const servedBy = async (instance: Awaited<ReturnType<typeof anotherInstance>>) => {
      const out: string[] = [];
      for (const key of keys) {
        const res = await instance.call("POST", "/api/workflows/revisions/retrieve", {
          key: c.key,
          body: byEnvironment(s),
          headers: { "x-svc-split-key": key },
        });
        expectStatus(res, 200);
        out.push(res.body.workflow_revision.id);
      }
      return out;
    };
    const a = await anotherInstance(c.t);
    const b = await anotherInstance(c.t);
    const first = await servedBy(a);
    expect(await servedBy(b)).toEqual(first);
    expect(await servedBy(a)).toEqual(first);
    await a.close();
    const restarted = await anotherInstance(c.t);
    expect(await servedBy(restarted)).toEqual(first);
    await Promise.all([b.close(), restarted.close()]);
    const salt = `${s.env.artifact.id}:${s.key}`;
    expect(first).toEqual(keys.map((key) => chooseArm(arms, salt, key).id));
  });

  it("lets a caller pin a revision of the split; a revision outside it is still a mismatch", async () => {
    const s = await deployed();
    expectStatus(
      await split(s, [
        [s.v2, 1],
        [s.v1, 99],
      ]),
      200,
    );
    for (const pinned of [s.v2, s.v1]) {
      const res = await retrieve(c, "workflows", { ...byEnvironment(s), workflow_revision_ref: { id: pinned.id } });
      expectStatus(res, 200);
      expect(res.body.workflow_revision.id).toBe(pinned.id);
      expect(res.body.retrieval_info.references.environment_revision.version).toBe("2");
    }
    const outside = await retrieve(c, "workflows", { ...byEnvironment(s), workflow_revision_ref: { id: s.v3.id } });
    expectStatus(outside, 400);
    expect(outside.body.code).toBe("reference_mismatch");
  });

  it("a new weight reaches every instance's next retrieve; a plain deploy of the key ends the split", async () => {
    const s = await deployed();
    const other = await anotherInstance(c.t);
    const cache = revisionCacheFor(other.context);
    await whenCacheHears(cache, () => cache.stats().listening, "its listen");
    // The next change the other instance hears (a notification carries tags; `null` is a re-listen).
    const nextChange = () => whenCacheHears(cache, (tags) => Array.isArray(tags), "the commit");
    try {
      const servedOn = async () =>
        (
          await other.call("POST", "/api/workflows/revisions/retrieve", {
            key: c.key,
            body: byEnvironment(s),
            headers: { "x-svc-split-key": "sticky" },
          })
        ).body.workflow_revision.id;
      expect(await servedOn()).toBe(s.v1.id);
      // Put the key's bucket on v2 whatever it is: v2 takes everything but 0.01%, placed last.
      let heard = nextChange();
      expectStatus(
        await split(s, [
          [s.v2, 99.99],
          [s.v1, 0.01],
        ]),
        200,
      );
      await heard;
      expect(await servedOn()).toBe(s.v2.id);
      heard = nextChange();
      const deploy = await c.t.call("POST", "/api/workflows/revisions/deploy", {
        key: c.key,
        body: { workflow_revision_ref: { id: s.v3.id }, environment_ref: { slug: s.env.artifact.slug } },
      });
      expectStatus(deploy, 200);
      expect(deploy.body.environment_revision.data.splits).toBeUndefined();
      await heard;
      expect(await servedOn()).toBe(s.v3.id);
    } finally {
      await other.close();
    }
  });

  it("refuses a split it could not honour, naming what is wrong", async () => {
    const s = await deployed();
    const another = await createArtifact(c, "workflows", { slug: uniq("wf"), data: dataFor("workflows", 9) });
    const cases: [Parameters<typeof split>[1], string][] = [
      [
        [
          [s.v2, 10],
          [s.v1, 80],
        ],
        "sum to 100",
      ],
      [[[s.v2, 100]], "2 to 4"],
      [
        [
          [s.v2, 10],
          [s.v3, 90],
        ],
        "must include the revision",
      ],
      [
        [
          [another.revision!, 10],
          [s.v1, 90],
        ],
        "one artifact",
      ],
      [
        [
          [s.v1, 10],
          [s.v1, 90],
        ],
        "twice",
      ],
      [
        [
          [s.v2, 0],
          [s.v1, 100],
        ],
        "above 0",
      ],
      [
        [
          [s.v2, 10.001],
          [s.v1, 89.999],
        ],
        "steps of 0.01",
      ],
    ];
    for (const [arms, detail] of cases) {
      const res = await split(s, arms);
      expectStatus(res, 400);
      expect(res.body.detail).toContain(detail);
      expect(res.body.code).toBe("invalid_split");
    }
    const five = await split(s, [
      [s.v1, 20],
      [s.v2, 20],
      [s.v3, 20],
      [another.revision!, 20],
      [s.v1, 20],
    ]);
    expectStatus(five, 422);
    const missing = await commitEnv(s, { splits: { "nothing.revision": [{ weight: 50 }, { weight: 50 }] } });
    expectStatus(missing, 400);
    expect(missing.body.detail).toContain('references["nothing.revision"]');
    // Nothing was committed by the refusals.
    const env = await retrieve(c, "environments", { environment_ref: { slug: s.env.artifact.slug } });
    expect(env.body.environment_revision.version).toBe("1");
  });
});

import { execFileSync } from "node:child_process";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replicasOf, withDatabaseName } from "@/server/db";
import { drainIngestQueue } from "@/server/tracing/ingest/worker";
import { revisionCacheFor } from "@/server/versioning";
import { anotherInstance, type AppInstance } from "../helpers/app-instance";
import { eventually } from "../helpers/eventually";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { createArtifact, dataFor } from "../versioning/helpers";

/**
 * Read replicas against a real streaming replica (scripts/ci/replica.sh, started by .ci/run):
 * TEST_DATABASE_REPLICA_URL reaches it, TEST_DATABASE_REPLICA_DIR is its directory (to stop and
 * restart it). The proof that a read ran on the replica: with the replica's replay paused, a
 * trace written after the pause is on the primary only, so a reader that does not see it was
 * answered by the replica, and one that does, by the primary.
 */
const replicaUrl = process.env.TEST_DATABASE_REPLICA_URL;
const replicaDir = process.env.TEST_DATABASE_REPLICA_DIR;
const reason = !process.env.DATABASE_URL
  ? "needs PostgreSQL (DATABASE_URL)"
  : !replicaUrl || !replicaDir
    ? "needs a streaming replica: TEST_DATABASE_REPLICA_URL and TEST_DATABASE_REPLICA_DIR (scripts/ci/replica.sh start)"
    : undefined;

describe.skipIf(reason !== undefined)(`read replicas${reason ? ` (skipped: ${reason})` : ""}`, () => {
  let t: TestApp;
  let a: AppInstance;
  let b: AppInstance;
  let lagging: AppInstance;
  let replica: postgres.Sql;
  /** The test database on the primary, to read the recorded write positions. */
  let primary: postgres.Sql;
  let owner: { key: string; projectId: string };
  /** Keys of the same project: `writer` writes before reading, `reader` never writes, `other` plants markers. */
  let writer: string;
  let reader: string;
  let other: string;

  const pgCtl = (...args: string[]) =>
    execFileSync(
      "bash",
      [
        "-c",
        'bin="/usr/lib/postgresql/$(ls /usr/lib/postgresql | sort -V | tail -n 1)/bin"; if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$bin/pg_ctl" "$@"; else "$bin/pg_ctl" "$@"; fi',
        "pg_ctl",
        ...args,
      ],
      { stdio: "pipe" },
    );

  const newKey = async (name: string) => {
    const res = await a.call("POST", "/api/keys", { key: owner.key, body: { name } });
    expect(res.status, res.text).toBe(201);
    return (res.body as { api_key: { key: string } }).api_key.key;
  };

  /** A trace planted by `other` and processed on the primary: while replay is paused, the replica does not have it. */
  const marker = async () => {
    const res = await a.call("POST", "/api/simple/traces/", {
      key: other,
      body: { trace: { origin: "human", data: { outputs: { score: 4 } } } },
    });
    expect(res.status, res.text).toBe(202);
    await drainIngestQueue(a.context);
    return (res.body as { trace: { trace_id: string } }).trace.trace_id;
  };

  /** How many of `trace` the instance's fetch finds as `key`: 1 from the primary, 0 from the paused replica. */
  const seen = async (instance: AppInstance, key: string, trace: string) => {
    const res = await instance.call("GET", `/api/traces/${trace}`, { key });
    expect(res.status, res.text).toBe(200);
    return (res.body as { count: number }).count;
  };

  const health = async (instance: AppInstance) => {
    const res = await instance.call("GET", "/api/health");
    return (res.body as { database: { replicas: { state: string; lag_ms?: number }[] } }).database.replicas[0];
  };

  /** Each instance's replica is ready again (the replica is another process: its state is probed). */
  const ready = (instance: AppInstance) =>
    eventually(
      "the replica is ready",
      async () => {
        await replicasOf(instance.context.db)!.probe();
        return (await health(instance)).state === "ready";
      },
      { ms: 30_000, intervalMs: 100 },
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await health(instance))}`);
    });

  const pause = () => replica`select pg_wal_replay_pause()`;
  const resume = () => replica`select pg_wal_replay_resume()`;

  beforeAll(async () => {
    t = await createTestApp();
    const name = new URL(t.database.url!).pathname.slice(1);
    const url = withDatabaseName({ url: replicaUrl!, pooler: "none" }, name).url;
    replica = postgres(withDatabaseName({ url: replicaUrl!, pooler: "none" }, "postgres").url, {
      max: 1,
      onnotice: () => {},
    });
    primary = postgres(t.database.url!, { max: 1, onnotice: () => {} });
    // Generous bound: the replica stays usable while it is paused for a whole test.
    a = await anotherInstance(t, { replicaMaxLagMs: 120_000 }, { replicaUrls: [url] });
    b = await anotherInstance(t, { replicaMaxLagMs: 120_000 }, { replicaUrls: [url] });
    lagging = await anotherInstance(t, { replicaMaxLagMs: 300 }, { replicaUrls: [url] });
    await Promise.all([ready(a), ready(b), ready(lagging)]);
    owner = await t.newProject("replicas");
    [writer, reader, other] = [await newKey("writer"), await newKey("reader"), await newKey("other")];
    await Promise.all([ready(a), ready(b)]);
  }, 120_000);

  afterAll(async () => {
    await resume().catch(() => {});
    await replica?.end();
    await primary?.end();
    await Promise.all([a?.close(), b?.close(), lagging?.close()]);
    await t?.close();
  });

  it("reads of a caller without writes go to the replica; after each kind of write (an A2A call too), the writer's next read sees the primary, on either instance", async () => {
    const writes: [string, () => Promise<void>][] = [
      [
        "ingest",
        async () => {
          const res = await a.call("POST", "/api/simple/traces/", {
            key: writer,
            body: { trace: { origin: "human", data: { outputs: { score: 1 } } } },
          });
          expect(res.status, res.text).toBe(202);
        },
      ],
      [
        "settings",
        async () => {
          const days = {
            traces_days: 30,
            runs_days: 30,
            chat_sessions_days: 30,
            evaluation_results_days: 30,
            events_days: 30,
          };
          const res = await a.call("PUT", "/api/retention/settings", { key: owner.key, body: days });
          // Settings need the owner's key: the owner is the writer here.
          expect(res.status, res.text).toBe(200);
        },
      ],
      [
        "commit",
        async () => {
          await createArtifact(
            { t: { call: a.call } as unknown as TestApp, key: writer, projectId: owner.projectId } as never,
            "applications",
            {
              data: dataFor("applications", 1),
            },
          );
        },
      ],
      [
        "deploy",
        async () => {
          const app = await createArtifact(
            { t: { call: b.call } as unknown as TestApp, key: other, projectId: owner.projectId } as never,
            "applications",
            { data: dataFor("applications", 2) },
          );
          const res = await a.call("POST", "/api/applications/revisions/deploy", {
            key: writer,
            body: { application_revision_ref: { id: app.revision!.id }, environment_ref: { slug: "production" } },
          });
          expect(res.status, res.text).toBe(200);
        },
      ],
      [
        "a2a",
        async () => {
          // An agent the project exposes over A2A (set up by the owner), then a JSON-RPC call to it
          // by the writer: the door records the caller's position like the REST doors.
          const created = await a.call("POST", "/api/workflows/", {
            key: owner.key,
            body: {
              workflow: {
                slug: "replica-a2a",
                data: {
                  parameters: { agent: { instructions: { agents_md: "Hi." }, llm: { model: "openai/gpt-5-mini" } } },
                },
              },
            },
          });
          expect(created.status, created.text).toBe(200);
          const deployed = await a.call("POST", "/api/workflows/revisions/deploy", {
            key: owner.key,
            body: {
              workflow_revision_ref: {
                id: (created.body as { workflow_revision: { id: string } }).workflow_revision.id,
              },
              environment_ref: { slug: "production" },
            },
          });
          expect(deployed.status, deployed.text).toBe(200);
          const exposed = await a.call("PUT", "/api/exposure", {
            key: owner.key,
            body: { exposures: [{ kind: "agent", slug: "replica-a2a", environment: "production" }] },
          });
          expect(exposed.status, exposed.text).toBe(200);
          const [{ lsn: before }] = await primary<{ lsn: string }[]>`select pg_current_wal_insert_lsn()::text as lsn`;
          const res = await a.call("POST", `/services/a2a/v0/${owner.projectId}/replica-a2a@production`, {
            headers: { authorization: `Bearer ${writer}` },
            body: { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: crypto.randomUUID() } },
          });
          expect(res.status, res.text).toBe(200);
          const [row] = await primary<{ after: boolean }[]>`
            select lsn >= ${before}::pg_lsn as after from replica_read_positions where caller like 'key:%'
            order by lsn desc limit 1`;
          expect(row?.after, "the A2A call recorded a position past the one before it").toBe(true);
        },
      ],
    ];
    try {
      for (const [kind, write] of writes) {
        const by = kind === "settings" ? owner.key : writer;
        await resume();
        await ready(a);
        await pause();
        await write();
        const trace = await marker();
        // The writer reads on the other instance: it found the write's position on the primary.
        expect(await seen(b, by, trace), `after ${kind}, the writer reads the primary`).toBe(1);
        expect(await seen(a, by, trace), `after ${kind}, on the instance written to too`).toBe(1);
        // A caller that did not write is answered by the (paused) replica.
        expect(await seen(b, reader, trace), `after ${kind}, others read the replica`).toBe(0);
      }
    } finally {
      await resume();
    }
  }, 120_000);

  it("a retrieve's cache miss reads the replica, unless the cache heard of a change the replica has not replayed", async () => {
    const as = { t: { call: a.call } as unknown as TestApp, key: other, projectId: owner.projectId } as never;
    const sent = Date.now();
    const committed = await createArtifact(as, "applications", { data: dataFor("applications", 5) });
    const { id, slug } = committed.revision!;
    await resume();
    // A probe asked after b heard the commit: a replica that replayed it holds everything b heard of.
    await eventually("b heard the commit", async () => revisionCacheFor(b.context).replicaFreshSince! >= sent);
    await replicasOf(b.context.db)!.probe();
    await ready(b);
    await pause();
    try {
      // Changed on the primary only, by SQL: nothing announces it, so only where a read ran shows.
      await primary`update revisions set message = 'primary only' where id = ${id}`;
      const message = async (body: unknown) => {
        const res = await b.call("POST", "/api/applications/revisions/retrieve", { key: reader, body });
        expect(res.status, res.text).toBe(200);
        return (res.body as { application_revision: { message: string | null } }).application_revision.message;
      };
      expect(await message({ application_revision_ref: { id } }), "the miss was answered by the replica").not.toBe(
        "primary only",
      );
      // A change b hears (a commit elsewhere in the project) and the paused replica has not replayed:
      // a miss now reads the primary, so no answer older than what b heard is stored.
      const heardBefore = revisionCacheFor(b.context).replicaFreshSince!;
      await createArtifact(as, "applications", { data: dataFor("applications", 6) });
      await eventually(
        "b heard the second commit",
        async () => revisionCacheFor(b.context).replicaFreshSince! > heardBefore,
      );
      expect(await message({ application_revision_ref: { slug } }), "the miss was answered by the primary").toBe(
        "primary only",
      );
    } finally {
      await resume();
    }
  }, 60_000);

  it("a replica further behind than REPLICA_MAX_LAG_MS is skipped, and used again once it catches up", async () => {
    await ready(lagging);
    const fresh = await newKey("lag reader");
    await pause();
    try {
      const trace = await marker();
      await eventually(
        "the replica lags past 300 ms",
        async () => {
          await replicasOf(lagging.context.db)!.probe();
          return (await health(lagging)).state === "lagging";
        },
        { ms: 10_000, intervalMs: 100 },
      );
      expect(await seen(lagging, fresh, trace)).toBe(1);
      // The generous instance still reads the replica for the same caller.
      expect(await seen(a, fresh, trace)).toBe(0);
    } finally {
      await resume();
    }
    await ready(lagging);
  }, 60_000);

  it("a replica stopped mid-test: reads go to the primary without errors; restarted, it serves again", async () => {
    const fresh = await newKey("failover reader");
    await ready(a);
    pgCtl("-D", `${replicaDir}/data`, "-m", "fast", "-w", "stop");
    try {
      const trace = await marker();
      // The first read finds the replica gone (or the probe already did) and is answered by the primary.
      expect(await seen(a, fresh, trace)).toBe(1);
      expect(await seen(b, fresh, trace)).toBe(1);
      expect((await health(a)).state).toBe("down");
    } finally {
      pgCtl("-D", `${replicaDir}/data`, "-l", `${replicaDir}/replica.log`, "-w", "-t", "30", "start");
    }
    await replica.end();
    replica = postgres(withDatabaseName({ url: replicaUrl!, pooler: "none" }, "postgres").url, {
      max: 1,
      onnotice: () => {},
    });
    await ready(a);
    await pause();
    try {
      const trace = await marker();
      expect(await seen(a, fresh, trace), "the restarted replica answers again").toBe(0);
    } finally {
      await resume();
    }
  }, 90_000);
});

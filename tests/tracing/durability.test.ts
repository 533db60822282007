import { PROJECT_SETUPS } from "@/server/boot";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/server/auth";
import { loadConfig } from "@/server/core/config";
import { openDatabase, rawQuery, type DatabaseHandle } from "@/server/db";
import type { AppContext } from "@/server/core/app-context";
import { SecretBox } from "@/server/encryption";
import { drainIngestQueue, recordSpans, startIngestWorker } from "@/server/tracing";
import { enqueueSpans } from "@/server/tracing/ingest/enqueue";
import { parseTracingRequest } from "@/server/tracing/parse-request";
import { openTestDatabase } from "../helpers/test-database";
import { within } from "../helpers/within";
import { spanId, traceId } from "./helpers";

// Concurrency and crash guarantees need real PostgreSQL (PGlite is one connection in this process).
const pg = !!process.env.DATABASE_URL;

describe.skipIf(!pg)("durability on PostgreSQL", () => {
  let database: DatabaseHandle;
  let key: string;
  let projectId: string;
  beforeAll(async () => {
    database = await openTestDatabase();
    const account = await createAccount(database.db, PROJECT_SETUPS, {
      email: `durable-${Date.now()}@test.local`,
      projectName: "durable",
    });
    key = account.secret;
    projectId = account.project.id;
  });
  afterAll(() => database.close());

  // A failed test must not leave its server writing into the next test's queue.
  const children = new Set<ChildProcess>();
  afterEach(() => {
    for (const child of children) child.kill("SIGKILL");
    children.clear();
  });

  /** What the database is doing, read on a connection of its own (the direct one behind a pooler). */
  async function activity(): Promise<string> {
    const sql = postgres(database.directUrl ?? database.url!, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql.unsafe(
        `select pid, pg_blocking_pids(pid) as blocked_by, state, wait_event_type, wait_event,
                left(query, 160) as query
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
      );
      return JSON.stringify(rows);
    } finally {
      await sql.end();
    }
  }

  function startServer(): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/tracing/fixtures/serve.ts"], {
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "silent", NODE_ENV: "test" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.add(child);
    const listening = new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const m = /LISTENING (\S+)/.exec(out);
        if (m) resolve({ child, url: m[1] });
      });
      child.on("exit", (code) => reject(new Error(`server exited with ${code} before listening`)));
    });
    return within(60_000, "server start", listening);
  }

  it("kill -9 right after the last 202 loses no acknowledged span", async () => {
    const first = await startServer();
    const acknowledged = new Set<string>();
    const traces: string[] = Array.from({ length: 20 }, () => traceId());
    const send = async (i: number) => {
      const spans = Array.from({ length: 50 }, (_, j) => ({
        trace_id: traces[(i + j) % traces.length],
        span_id: spanId(),
        span_name: `r${i}`,
        start_time: new Date(Date.now() - j).toISOString(),
        attributes: { "ag.metrics.tokens.incremental.total": 1 },
      }));
      const res = await within(
        30_000,
        "ingest request",
        fetch(`${first.url}/api/tracing/spans/ingest`, {
          method: "POST",
          headers: { authorization: `ApiKey ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ spans }),
        }),
        activity,
      );
      if (res.status === 202) for (const s of spans) acknowledged.add(`${s.trace_id.replaceAll("-", "")}/${s.span_id}`);
    };
    // Eight senders at once, 60 requests: the in-process worker is busy writing when the kill comes.
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 60) await send(next++);
      }),
    );
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    expect(acknowledged.size).toBe(3000);
    // Typically most of the 3,000 spans are still queued here, some written: the restart has work to finish.

    // The killed server's backends end their transactions once PostgreSQL sees the connection
    // gone: locking every queued row waits for that (instead of skipping rows they still hold).
    await within(
      60_000,
      "the killed server's transactions on the queue to end",
      rawQuery(database.db, `select count(*) from (select id from span_ingest for update) as queued`),
      activity,
    );
    // Then what a restarted server's ingest worker does first: drain the queue the killed one left.
    const restarted = {
      db: database.db,
      dbKind: "postgres",
      config: loadConfig(),
      secrets: new SecretBox(randomBytes(32)),
      projectSetups: PROJECT_SETUPS,
      now: () => new Date(),
    } satisfies AppContext;
    await within(60_000, "the queue left by the killed server drained", drainIngestQueue(restarted), activity);
    const rows = await rawQuery<{ t: string; s: string }>(
      database.db,
      `select replace(trace_id::text, '-', '') as t, right(replace(span_id::text, '-', ''), 16) as s from spans where project_id = $1::uuid`,
      [projectId],
    );
    const stored = new Set(rows.map((r) => `${r.t}/${r.s}`));
    expect(rows.length).toBe(stored.size);
    for (const k of acknowledged) expect(stored.has(k)).toBe(true);
    const queued = await rawQuery<{ n: string }>(database.db, `select count(*)::text as n from span_ingest`);
    expect(queued[0].n).toBe("0");
  }, 150_000);

  /** Two ingest workers, each on a database handle of its own, as two processes would run them. */
  async function startTwoWorkers() {
    const config = { ...loadConfig(), tracing: { ...loadConfig().tracing, maxBacklogSpans: 1_000_000 } };
    // Two processes configured as the first (behind a pooler: no prepared statements there).
    const handles = await Promise.all(
      [0, 1].map(() =>
        openDatabase({ url: database.url!, pooler: database.pooler, directUrl: database.directUrl, maxConnections: 4 }),
      ),
    );
    const processed: string[][] = [[], []];
    // The rows the two have processed, awaited as their passes report them (no polling).
    let total = 0;
    let target = Number.POSITIVE_INFINITY;
    let reached: (() => void) | undefined;
    const rowsProcessed = (n: number) =>
      within(
        60_000,
        `${n} ingest rows processed`,
        new Promise<void>((resolve) => {
          target = n;
          reached = resolve;
          if (total >= n) resolve();
        }),
        async () => `${total} processed; activity ${await activity()}`,
      );
    const workers = handles.map((h, i) =>
      startIngestWorker(
        {
          db: h.db,
          dbKind: "postgres",
          config,
          secrets: new SecretBox(randomBytes(32)),
          projectSetups: PROJECT_SETUPS,
          now: () => new Date(),
        } satisfies AppContext,
        {
          rowsPerPass: 4,
          onBatch: (r) => {
            processed[i].push(...r.rowIds);
            total += r.rowIds.length;
            if (total >= target) reached?.();
          },
        },
      ),
    );
    const stop = async () => {
      await Promise.all(workers.map((w) => w.stop()));
      await Promise.all(handles.map((h) => h.close()));
    };
    return { handles, processed, rowsProcessed, stop };
  }

  const queueEmpty = async () =>
    (await rawQuery<{ n: string }>(database.db, `select count(*)::text as n from span_ingest`))[0].n === "0";

  it("two workers on one database never process an ingest row twice, and the roll-ups come out exact", async () => {
    const { handles, processed, rowsProcessed, stop } = await startTwoWorkers();
    try {
      const traces = Array.from({ length: 10 }, () => ({ id: traceId(), root: spanId() }));
      const before = Number(
        (await rawQuery<{ n: string }>(database.db, `select coalesce(max(id), 0)::text as n from span_ingest`))[0].n,
      );
      // Roots first, then 200 requests of children spread over the same 10 traces.
      await enqueueSpans(
        database.db,
        projectId,
        parseTracingRequest({ spans: traces.map((t) => ({ trace_id: t.id, span_id: t.root, span_name: "root" })) })
          .spans,
        { maxBacklogSpans: 1e9 },
      );
      const perTrace = new Map<string, number>();
      for (let i = 0; i < 200; i++) {
        const spans = Array.from({ length: 10 }, (_, j) => {
          const t = traces[(i + j) % traces.length];
          perTrace.set(t.id, (perTrace.get(t.id) ?? 0) + 1);
          return {
            trace_id: t.id,
            span_id: spanId(),
            parent_id: t.root,
            span_name: "child",
            attributes: { "ag.metrics.tokens.incremental.total": 1 },
          };
        });
        await enqueueSpans(handles[i % 2].db, projectId, parseTracingRequest({ spans }).spans, {
          maxBacklogSpans: 1e9,
        });
      }
      await rowsProcessed(201);
      expect(await queueEmpty()).toBe(true);

      const all = [...processed[0], ...processed[1]];
      expect(all.length).toBe(201);
      expect(new Set(all).size).toBe(201);
      expect(all.every((id) => Number(id) > before)).toBe(true);
      expect(processed[0].length).toBeGreaterThan(0);
      expect(processed[1].length).toBeGreaterThan(0);
      for (const t of traces) {
        const [root] = await rawQuery<{ total: number }>(
          database.db,
          `select (attributes #>> '{ag,metrics,tokens,cumulative,total}')::int as total from spans where project_id = $1::uuid and trace_id = $2::uuid and parent_id is null`,
          [projectId, parseTracingRequest({ spans: [{ trace_id: t.id, span_id: t.root }] }).spans[0].trace_id],
        );
        expect(root.total).toBe(perTrace.get(t.id));
      }
    } finally {
      await stop();
    }
  }, 120_000);

  it("two workers writing traces of their own into the same roll-up rows lose none of each other's sums", async () => {
    // Disjoint traces take no common trace lock: only the roll-up rows (one quarter, hour and day) are shared.
    const { project } = await createAccount(database.db, PROJECT_SETUPS, {
      email: `rollups-${Date.now()}@test.local`,
      projectName: "roll-ups",
    });
    const { handles, processed, rowsProcessed, stop } = await startTwoWorkers();
    try {
      const start = new Date(Math.floor(Date.now() / 900_000) * 900_000).toISOString();
      for (let i = 0; i < 200; i++) {
        const spans = Array.from({ length: 5 }, () => {
          const trace = traceId();
          const root = spanId();
          return [
            { trace_id: trace, span_id: root, span_name: "run", start_time: start },
            {
              trace_id: trace,
              span_id: spanId(),
              parent_id: root,
              span_name: "chat",
              start_time: start,
              attributes: { "ag.metrics.tokens.incremental.total": 1 },
            },
          ];
        }).flat();
        await recordSpans(handles[i % 2].db, project.id, spans);
      }
      await rowsProcessed(200);
      expect(await queueEmpty()).toBe(true);
      expect(processed[0].length).toBeGreaterThan(0);
      expect(processed[1].length).toBeGreaterThan(0);
      // The rows that count each span once (ROLLUP_DETAIL none and with; not the summed or narrow day rows).
      const sums = await rawQuery<Record<string, string>>(
        database.db,
        `select grain, sum(spans)::text as spans, sum((tokens ->> 'total')::numeric)::text as tokens,
           sum((run_tokens ->> 'total')::numeric)::text as run_tokens,
           sum((select sum(value::numeric) from jsonb_each(latency)))::text as latency
         from span_rollups where project_id = $1::uuid and detail in (0, 1) group by grain order by grain`,
        [project.id],
      );
      const expected = { spans: "2000", tokens: "1000", run_tokens: "1000", latency: "2000" };
      expect(sums).toEqual(["day", "hour", "quarter"].map((grain) => ({ grain, ...expected })));
      // The narrow day row of every span (NARROW_DETAIL.total), which both workers update in each batch.
      const [total] = await rawQuery<Record<string, string>>(
        database.db,
        `select sum(spans)::text as spans, sum((tokens ->> 'total')::numeric)::text as tokens,
           sum((run_tokens ->> 'total')::numeric)::text as run_tokens,
           sum((select sum(value::numeric) from jsonb_each(latency)))::text as latency
         from span_rollups where project_id = $1::uuid and detail = 3`,
        [project.id],
      );
      expect(total).toEqual(expected);
    } finally {
      await stop();
    }
  }, 120_000);
});

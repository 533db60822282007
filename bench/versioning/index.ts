/**
 * versioning: commits/s (1 and 16 clients) and retrieve requests/s for every reference kind, over
 * HTTP on the production server (`npm start`) with PostgreSQL, each as a ratio to the floor: a
 * minimal node:http + postgres.js server (bench/floor-server/) running the app's own SQL (the
 * retrieve-by-slug lookup; for commits the commit's statements in one transaction) and writing the
 * bytes the app answered, measured in the same run.
 *
 *   npm run bench -- versioning [--duration 4] [--warmup 2] [--rounds 5] [--connections 10] [--rebuild | --no-rebuild] [--api-only] [--commits-only] [--cpu-prof=<dir>] [--node-arg=<flag>]... [--retrieves=<kind>,...]
 *
 * `--commits-only` measures the commits alone (1 client, 16 on one variant, 16 on their own
 * variants), each with the database's CPU and transactions per commit beside the floor's, and
 * `commit_statements`: what the floor sends and what the app adds.
 *
 * `--api-only` runs the API door without Next.js (bench/api-server/): the same path server.ts
 * gives /api requests, for where `next build` cannot run. `--cpu-prof=<dir>` runs the server
 * under `node --cpu-prof` and writes its profile into `<dir>` when the run ends; `--node-arg=`
 * passes any other option to the server's node (`--trace-gc`, say: its output is in the JSON's
 * `server_output_tail`). `--retrieves=` measures only those kinds of retrieve and nothing else
 * (`environment_split`: the 90/10 split retrieve as a ratio to the plain environment retrieve)
 * (no ceiling, commits or watcher), for a quick look at one path. Each retrieve
 * kind also reports the database transactions the app's measured runs made per request
 * (pg_stat_database; the floor makes one: its query) and the CPU the database's backends spent
 * per request of the app's runs and of the floor's (from /proc; the database runs on this machine). Last, `no_query_ceiling`: the floor server
 * writing the same answer without its query, against the floor, i.e. the ratio a server answering
 * from memory with nothing else to do reaches on this machine at this load.
 *
 * Every figure alternates with the floor `--rounds` times (see measureAgainstFloor) and reports
 * the median ratio. Retrieves are answered by the app's revision cache (server/versioning/cache/)
 * after their first request; the floor still runs its query every time (target: 1.5x the floor,
 * p99 under 2 ms). Last, the deploy-to-watcher latency: a `GET /revisions/watch` stream open on
 * an environment key while deploys alternate two revisions, from sending each deploy to its event
 * (target: p99 under 200 ms).
 *
 * Uses DATABASE_URL, or the local server at postgres://postgres@127.0.0.1:5432/test; a fresh
 * database is created for the run and dropped afterwards.
 */
import { loadAverage, log, machine, parseLoadOptions } from "../lib/benchmark";
import { measureAgainstFloor, round3, type FloorComparison } from "../lib/floor";
import { measure, type Measurement, type RequestSpec } from "../lib/measure";
import { startFloorServer } from "../lib/floor-server";
import postgres from "postgres";
import { processCpuMs } from "../lib/process-cpu";
import { ensureBuild, startNextServer, type NextServer } from "../lib/next-server";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";

/** What a kind of retrieve costs the database, per request of the app's (and the floor's) measured runs. */
interface DatabaseCost {
  database_transactions_per_request: number;
  /** CPU of the bench database's backends (the app's pool, its workers), from /proc. */
  database_cpu_ms_per_request: number;
  floor_database_cpu_ms_per_request: number;
}
const COMMIT_CLIENTS = 16;

/**
 * What a commit sends to the database. The floor (bench/floor-server/) sends `floor` in one
 * transaction, in two round trips: begin with the lock, then the rest with the commit, with the app's
 * parameters (the committed event's attributes as the app writes them); the app sends the same
 * the same way, and `app_adds`. `database_transactions_per_request` also counts what a commit
 * causes afterwards on both sides alike (a fan-out claim, only when a webhook takes the event).
 * `app_does_not_add` lists what the commit route could have put in the transaction and does not.
 */
const COMMIT_STATEMENTS = {
  floor: [
    "begin, in the same write as the lock",
    "lock the variant row joined to its artifact (select ... for update of variants): the next version, the archive check",
    "update variants set head_version",
    "insert into revisions",
    "insert into events (the committed event; transactional outbox), its project row locked for key share, written already fanned out when no webhook subscription takes it, with pg_notify('events_written') in the same statement only when one does (none here)",
    "commit, in the same write as the three statements before it",
  ],
  app_adds: [
    "the cache invalidation, after the transaction (server/versioning/cache/README.md, notified after the commit): select set_config('synchronous_commit', 'off', true), pg_notify('versioning_changed', '#hold tags'), sent in the same write as the COMMIT and run by the server right after it as a transaction of its own (no round trip of its own; the answer waits for the COMMIT's answer only). Inside the commit's transaction the NOTIFY would serialize it with every other notifying commit: PostgreSQL holds a cluster-wide lock from pre-commit through the WAL flush (pgbench here, update + commit at 16 clients: about 2.4 times fewer per second with a NOTIFY)",
    "a select of the project's redaction settings, at most once per project per 5 s per process, before the event insert (the committed event's message is stored as the project's rules leave it)",
  ],
  app_does_not_add: [
    "no fan-out transaction: the event nobody takes is written fanned out (before: a claim transaction per commit, begin, claim, commit, in the app's process)",
    "no separate events notify statement: it rides in the event insert, and only when a webhook takes the event",
    "no audit row: revision commits are recorded by their committed event, not the audit log",
    "no canary or deploy-gate query: those run on an environment commit (a deploy), not on an application commit",
    "no replica write position: recorded only when DATABASE_REPLICA_URLS is set, after the transaction (one statement)",
    "no revision-slug lookup unless the request names a slug; no version-0 lookup once the variant has a head",
  ],
};
const WATCH_DEPLOYS = 50;

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const apiOnly = argv.includes("--api-only");
  const commitsOnly = argv.includes("--commits-only");
  const valuesOf = (name: string) =>
    argv.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
  const profileDir = valuesOf("cpu-prof")[0];
  const nodeArgs = valuesOf("node-arg");
  const onlyKinds = valuesOf("retrieves")[0]?.split(",");
  const load = parseLoadOptions(
    argv.filter((a) => a !== "--api-only" && a !== "--commits-only" && !/^--(cpu-prof|node-arg|retrieves)=/.test(a)),
    { durationS: 4, warmupS: 2, connections: 10, rounds: 5 },
  );
  const loadBefore = loadAverage();
  if (!apiOnly) await ensureBuild({ rebuild: load.rebuild });
  const server = await startNextServer({
    databaseUrl: process.env.DATABASE_URL || LOCAL_POSTGRES,
    apiOnly,
    nodeArgs: [...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), ...nodeArgs],
    // tsx compiles the server at start: on a loaded machine that passed the default minute.
    timeoutMs: 300_000,
  });
  let stopFloor = async () => {};
  try {
    const api = client(server);
    const fixture = await seed(api);
    const floorRequest = { application_revision_ref: { slug: fixture.revision.slug } };
    const commitBody = (variantId: string, i: number) => ({
      application_revision_commit: {
        application_variant_id: variantId,
        message: `bench ${i}`,
        data: { parameters: { n: i } },
      },
    });
    // Each kind of retrieve against a floor running the very lookup the app runs for it.
    const retrieveKinds: Record<string, { body: unknown; query: string; values: Record<string, unknown> }> = {
      revision_id: {
        body: { application_revision_ref: { id: fixture.revision.id } },
        query: "revisionById",
        values: { id: fixture.revision.id },
      },
      revision_slug: {
        body: { application_revision_ref: { slug: fixture.revision.slug } },
        query: "revisionBySlug",
        values: { slug: fixture.revision.slug },
      },
      variant_and_version: {
        body: { application_variant_ref: { id: fixture.variantId }, application_revision_ref: { version: "2" } },
        query: "inVariantAt",
        values: { variantId: fixture.variantId, version: 2 },
      },
      variant_latest: {
        body: { application_variant_ref: { id: fixture.variantId } },
        query: "latestOfVariant",
        values: { variantId: fixture.variantId },
      },
      artifact_latest: {
        body: { application_ref: { slug: fixture.slug } },
        query: "latestOfArtifactBySlug",
        values: { slug: fixture.slug },
      },
      environment_and_key: {
        body: { environment_ref: { slug: "staging" }, key: `${fixture.slug}.revision` },
        query: "deployedViaEnvironmentSlug",
        values: { slug: "staging", key: `${fixture.slug}.revision`, revisionKey: "application_revision" },
      },
    };
    const answer = async (body: unknown) =>
      Buffer.from(
        await (
          await fetch(`${server.baseUrl}/api/applications/revisions/retrieve`, {
            method: "POST",
            headers: api.headers,
            body: JSON.stringify(body),
          })
        ).arrayBuffer(),
      );
    const lookups: Record<string, { query: string; values: Record<string, unknown>; response: Buffer }> = {};
    for (const [kind, { body, query, values }] of Object.entries(retrieveKinds))
      lookups[kind] = { query, values, response: await answer(body) };
    const floorServer = await startFloorServer({
      databaseUrl: server.databaseUrl!,
      response: await answer(floorRequest),
      slug: fixture.revision.slug,
      lookups,
      commitResponse: Buffer.from(
        JSON.stringify(await api.post("/api/applications/revisions/commit", commitBody(fixture.commitVariants[0]!, 0))),
      ),
    });
    stopFloor = floorServer.stop;
    const floors: Measurement[] = [];

    log("measuring retrieves");
    const retrieve: Record<string, FloorComparison & DatabaseCost> = {};
    const database = databaseCounter(server.databaseUrl!);
    const unknownKinds = onlyKinds?.filter((kind) => !(kind in retrieveKinds) && kind !== "environment_split") ?? [];
    if (unknownKinds.length)
      throw new Error(
        `--retrieves: unknown ${unknownKinds.join(", ")}; known: ${Object.keys(retrieveKinds).join(", ")}`,
      );
    for (const [kind, { body }] of Object.entries(retrieveKinds)) {
      if (commitsOnly || (onlyKinds && !onlyKinds.includes(kind))) continue;
      log(`retrieve by ${kind}`);
      const retrieveLoad = { method: "POST" as const, body, connections: load.connections, expectStatus: 200 };
      const app = { transactions: 0, cpuMs: 0, requests: 0 };
      const floor = { transactions: 0, cpuMs: 0, requests: 0 };
      const counted = database.counted;
      const comparison = await measureAgainstFloor(
        (timing) =>
          counted(floor, () => floorServer.measure({ ...retrieveLoad, ...timing, path: `/floor/${kind}` })).then(
            (m) => (floors.push(m), m),
          ),
        load,
        (timing) =>
          counted(app, () =>
            measure({
              ...retrieveLoad,
              ...timing,
              baseUrl: server.baseUrl,
              serverPid: server.pid,
              path: "/api/applications/revisions/retrieve",
              headers: api.headers,
            }),
          ),
      );
      retrieve[kind] = {
        ...comparison,
        database_transactions_per_request: round3(app.transactions / app.requests),
        database_cpu_ms_per_request: round3(app.cpuMs / app.requests),
        floor_database_cpu_ms_per_request: round3(floor.cpuMs / floor.requests),
      };
    }
    // A 90/10 split against the same retrieve of an unsplit environment, alternated like the
    // floor: each request with its own sticky key (1,000 of them), so the hash runs every time.
    const splitRetrieve =
      commitsOnly || (onlyKinds && !onlyKinds.includes("environment_split"))
        ? undefined
        : await (async () => {
            log("retrieve by environment with a 90/10 split, against the plain environment retrieve");
            const keyed = (slug: string) => ({
              method: "POST" as const,
              body: { environment_ref: { slug }, key: `${fixture.slug}.revision` },
              connections: load.connections,
              expectStatus: 200,
              baseUrl: server.baseUrl,
              serverPid: server.pid,
              path: "/api/applications/revisions/retrieve",
              headers: api.headers,
              next: (i: number): RequestSpec => ({ headers: { "x-svc-split-key": `session-${i % 1000}` } }),
            });
            const comparison = await measureAgainstFloor(
              (timing) => measure({ ...keyed("staging"), ...timing }),
              load,
              (timing) => measure({ ...keyed("development"), ...timing }),
            );
            return { ...comparison, target_ratio_to_plain_environment: 0.95 };
          })();
    if (onlyKinds) {
      await database.close();
      return {
        benchmark: "versioning",
        retrieve,
        ...(splitRetrieve && { environment_split_90_10: splitRetrieve }),
        server_output_tail: server.output().slice(-20_000),
        ...machine(),
        load_avg_1m_at_start: loadBefore,
      };
    }
    // What the floor serves without its query: the most any server answering from memory could
    // reach here, beside which the 1.5x target is to be read.
    log("measuring the no-query ceiling");
    const ceilingLoad = {
      method: "POST" as const,
      body: retrieveKinds.revision_id!.body,
      connections: load.connections,
      expectStatus: 200,
    };
    const noQueryCeiling = commitsOnly
      ? undefined
      : await measureAgainstFloor(
          (timing) => floorServer.measure({ ...ceilingLoad, ...timing, path: "/floor/revision_id" }),
          load,
          (timing) => floorServer.measure({ ...ceilingLoad, ...timing, path: "/floor/revision_id/no-query" }),
        );
    // After the retrieves: the commits' events keep the fan-out worker busy for a while after them.
    // Commits are compared with the floor's minimal transaction (the same statements), with the
    // same request bodies, the same variants and the same number of clients.
    log("measuring commits");
    const commits: Record<
      string,
      FloorComparison & DatabaseCost & { floor_database_transactions_per_request: number }
    > = {};
    const commitCases = {
      clients_1: { connections: 1, variantFor: () => fixture.commitVariants[0]! },
      clients_16_one_variant: { connections: COMMIT_CLIENTS, variantFor: () => fixture.commitVariants[0]! },
      clients_16_own_variants: {
        connections: COMMIT_CLIENTS,
        variantFor: (i: number) => fixture.commitVariants[i % COMMIT_CLIENTS]!,
      },
    };
    for (const [name, { connections, variantFor }] of Object.entries(commitCases)) {
      const next = (i: number): RequestSpec => ({ body: commitBody(variantFor(i), i) });
      const commitLoad = { method: "POST" as const, connections, next, expectStatus: 200 };
      const app = { transactions: 0, cpuMs: 0, requests: 0 };
      const floor = { transactions: 0, cpuMs: 0, requests: 0 };
      const comparison = await measureAgainstFloor(
        (timing) =>
          database.counted(floor, () => floorServer.measure({ ...commitLoad, ...timing, path: "/floor/commit" })),
        load,
        (timing) =>
          database.counted(app, () =>
            measure({
              ...commitLoad,
              ...timing,
              baseUrl: server.baseUrl,
              serverPid: server.pid,
              path: "/api/applications/revisions/commit",
              headers: api.headers,
            }),
          ),
      );
      commits[name] = {
        ...comparison,
        database_transactions_per_request: round3(app.transactions / app.requests),
        floor_database_transactions_per_request: round3(floor.transactions / floor.requests),
        database_cpu_ms_per_request: round3(app.cpuMs / app.requests),
        floor_database_cpu_ms_per_request: round3(floor.cpuMs / floor.requests),
      };
    }
    await database.close();
    if (commitsOnly)
      return {
        benchmark: "versioning",
        database: server.database,
        server: apiOnly ? "api door only (bench/api-server)" : "npm start",
        commits,
        commit_statements: COMMIT_STATEMENTS,
        target_commit_ratio: 0.95,
        rounds: load.rounds,
        duration_s: load.durationS,
        ...machine(),
        load_avg_1m_at_start: loadBefore,
      };

    log("measuring deploy-to-watcher latency");
    const watch = await deployToWatcher(server, api.headers, fixture, WATCH_DEPLOYS);
    const health = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as Record<string, unknown>;
    const ratios = Object.values(retrieve).map((r) => r.ratio_to_floor);
    return {
      benchmark: "versioning",
      database: server.database,
      server: apiOnly ? "api door only (bench/api-server)" : "npm start",
      floor: {
        target:
          "minimal node:http + postgres.js: per kind of retrieve the app's own lookup query, the app's response bytes",
        requests_per_sec_mean: round3(floors.reduce((sum, f) => sum + f.requests_per_sec, 0) / floors.length),
        latency_ms_p50_mean: round3(floors.reduce((sum, f) => sum + f.latency_ms.p50, 0) / floors.length),
        measurements: floors.length,
      },
      commits,
      commit_statements: COMMIT_STATEMENTS,
      target_commit_ratio: 0.95,
      retrieve,
      retrieve_min_ratio_to_floor: Math.min(...ratios),
      // ratio_to_floor here is the split retrieve's req/s over the plain environment retrieve's.
      environment_split_90_10: splitRetrieve,
      retrieve_min_cpu_ratio_to_floor: Math.min(...Object.values(retrieve).map((r) => r.cpu_ratio_to_floor ?? NaN)),
      target_retrieve_ratio: 1.5,
      no_query_ceiling: noQueryCeiling,
      retrieve_max_p99_ms: Math.max(...Object.values(retrieve).map((r) => r.latency_ms.p99)),
      target_retrieve_p99_ms: 2,
      deploy_to_watcher: watch,
      target_deploy_to_watcher_p99_ms: 200,
      revision_cache: health.revision_cache,
      ratio_spread_max: Math.max(...Object.values(retrieve).map((r) => r.ratio_spread)),
      connections: load.connections,
      duration_s: load.durationS,
      warmup_s: load.warmupS,
      rounds: load.rounds,
      ...machine(),
      load_avg_1m_at_start: loadBefore,
    };
  } finally {
    await stopFloor();
    await server.stop();
  }
}

/**
 * Transactions committed in the run's database so far (pg_stat_database, which the statistics
 * collector publishes with a delay of up to half a second: it is read after a pause). Every
 * statement outside a transaction block counts as one.
 */
/**
 * The bench database's committed transactions and its backends' CPU (from /proc: the database
 * runs on this machine), read after the statistics and any queued read events have settled.
 */
function databaseCounter(databaseUrl: string) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  return {
    async read(): Promise<{ transactions: number; cpuMs: number }> {
      await new Promise((r) => setTimeout(r, 700));
      await sql`select pg_stat_clear_snapshot()`;
      const [row] = await sql<
        { xact_commit: string }[]
      >`select xact_commit from pg_stat_database where datname = current_database()`;
      const backends = await sql<{ pid: number }[]>`
        select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
      let cpuMs = 0;
      for (const { pid } of backends) {
        try {
          cpuMs += processCpuMs(pid);
        } catch {
          // A backend that ended between the two reads: its connection closed, nothing to count.
        }
      }
      return { transactions: Number(row!.xact_commit), cpuMs };
    },
    /** Runs `run`, adding its requests and the database's transactions and CPU over it to `into`. */
    async counted(
      into: { transactions: number; cpuMs: number; requests: number },
      run: () => Promise<Measurement>,
    ): Promise<Measurement> {
      const before = await this.read();
      const measured = await run();
      const after = await this.read();
      into.transactions += after.transactions - before.transactions;
      into.cpuMs += after.cpuMs - before.cpuMs;
      into.requests += measured.requests_total;
      return measured;
    },
    close: () => sql.end({ timeout: 1 }),
  };
}

function client(server: NextServer) {
  if (!server.apiKey) throw new Error("The server printed no API key; the versioning benchmark needs a fresh database");
  const headers = { authorization: `ApiKey ${server.apiKey}`, "content-type": "application/json" };
  return {
    headers,
    async post(path: string, body: unknown) {
      const res = await fetch(`${server.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
      const json = (await res.json()) as Record<string, any>;
      if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
      return json;
    },
  };
}

/** One application with three revisions deployed to staging, plus variants to commit to. */
async function seed(api: ReturnType<typeof client>) {
  const slug = "bench-app";
  const created = await api.post("/api/applications/", {
    application: {
      slug,
      name: "Bench app",
      data: { parameters: { prompt: { messages: [{ role: "system", content: "You are helpful." }] } } },
    },
  });
  const variantId = created.application_variant.id as string;
  const first = created.application_revision as { id: string; slug: string };
  let revision = first;
  for (let v = 2; v <= 3; v++) {
    const committed = await api.post("/api/applications/revisions/commit", {
      application_revision_commit: { application_variant_id: variantId, message: `v${v}`, data: { parameters: { v } } },
    });
    revision = committed.application_revision;
  }
  await api.post("/api/applications/revisions/deploy", {
    application_ref: { slug },
    environment_ref: { slug: "staging" },
  });
  // development splits the key 90/10 between v1 and v3: the split retrieve's figure.
  await api.post("/api/applications/revisions/deploy", {
    application_revision_ref: { id: first.id },
    environment_ref: { slug: "development" },
  });
  const development = await api.post("/api/environments/revisions/retrieve", {
    environment_ref: { slug: "development" },
  });
  await api.post("/api/environments/revisions/commit", {
    environment_revision_commit: {
      environment_variant_id: development.environment_revision.environment_variant_id,
      delta: {
        splits: {
          [`${slug}.revision`]: [
            { weight: 10, application_revision: { id: revision.id } },
            { weight: 90, application_revision: { id: first.id } },
          ],
        },
      },
    },
  });
  const commitVariants: string[] = [];
  for (let i = 0; i < COMMIT_CLIENTS; i++) {
    // Created without data, an application has no variant until the client makes one.
    const app = await api.post("/api/applications/", { application: { slug: `commit-target-${i}` } });
    const variant = await api.post("/api/applications/variants/", {
      application_variant: { application_id: app.application.id, slug: "default" },
    });
    commitVariants.push(variant.application_variant.id as string);
  }
  return { slug, variantId, first, revision, commitVariants };
}

/**
 * Opens a watch on production under the bench app's key, then deploys the app's first and last
 * revisions in turn: per deploy, the time from sending it to its event arriving, and the deploy
 * request's own duration (its commit happens within it).
 */
async function deployToWatcher(
  server: NextServer,
  headers: Record<string, string>,
  fixture: Awaited<ReturnType<typeof seed>>,
  deploys: number,
) {
  const deploy = (id: string) =>
    fetch(`${server.baseUrl}/api/applications/revisions/deploy`, {
      method: "POST",
      headers,
      body: JSON.stringify({ application_revision_ref: { id }, environment_ref: { slug: "production" } }),
    }).then(async (res) => {
      if (!res.ok) throw new Error(`deploy answered ${res.status}: ${await res.text()}`);
    });
  await deploy(fixture.first.id);
  const controller = new AbortController();
  const res = await fetch(
    `${server.baseUrl}/api/applications/revisions/watch?environment_ref.slug=production&key=${fixture.slug}.revision`,
    {
      headers: { authorization: headers.authorization },
      signal: controller.signal,
    },
  );
  if (!res.ok) throw new Error(`watch answered ${res.status}: ${await res.text()}`);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  /** The id of the next revision event. */
  const nextEvent = async (): Promise<string> => {
    for (;;) {
      const match = /id: (\S+)\nevent: revision\n/.exec(buffer);
      if (match) {
        buffer = buffer.slice(buffer.indexOf("\n\n", match.index) + 2);
        return match[1]!;
      }
      const chunk = await reader.read();
      if (chunk.done) throw new Error("the watch ended");
      buffer += chunk.value;
    }
  };
  await nextEvent();
  const latencies: number[] = [];
  const deployMs: number[] = [];
  for (let i = 0; i < deploys; i++) {
    const target = i % 2 === 0 ? fixture.revision.id : fixture.first.id;
    const started = performance.now();
    const arrived = nextEvent();
    await deploy(target);
    deployMs.push(performance.now() - started);
    if ((await arrived) !== target) throw new Error("the watch sent another revision than the one deployed");
    latencies.push(performance.now() - started);
  }
  controller.abort();
  const pct = (values: number[], p: number) =>
    round3([...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!);
  return {
    deploys,
    latency_ms: { p50: pct(latencies, 50), p99: pct(latencies, 99), max: pct(latencies, 100) },
    deploy_request_ms: { p50: pct(deployMs, 50), p99: pct(deployMs, 99) },
  };
}

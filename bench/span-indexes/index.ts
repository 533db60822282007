/**
 * What the index behind the session and user id lists (POST /api/spans/{sessions,users}/query)
 * costs a span write, on PostgreSQL:
 *
 *   npm run bench -- span-indexes [--spans 200000] [--rounds 6] [--user-every 1]
 *
 * Seeds `--spans` spans (the traces-at-scale shape) in a fresh database, copies them to a staging
 * table with a session id on every span and a user id on every `--user-every`th, then times
 * `insert into spans select * from staging` into the emptied table, a checkpoint before each, with
 * three sets of that index: none; the two of migration 0050 (one per list); and the one the schema
 * has now (0052, read from the database, so the figure follows the schema). The sets alternate in
 * each round, the order reversed every other round, after a discarded warm-up round; each
 * variant's cost is the median over the rounds of its time against the same round's `none`.
 */
import { randomBytes, randomUUID } from "node:crypto";
import postgres from "postgres";
import { migrateDatabase, openDatabase } from "@/server/db";
import { loadAverage, log, machine } from "../lib/benchmark";
import { seed } from "../traces-at-scale/seed";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";
const ACTOR_INDEXES = ["spans_session_key_idx", "spans_user_key_idx", "spans_actor_key_idx"];
const SESSION = `session_id is not null or (attributes -> 'ag' -> 'session') ? 'id'`;
const USER = `user_id is not null or (attributes -> 'ag' -> 'user') ? 'id'`;

interface Options {
  spans: number;
  rounds: number;
  userEvery: number;
}

function parseOptions(argv: string[]): Options {
  const out: Options = { spans: 200_000, rounds: 6, userEvery: 1 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    const value = () => Number(inline ?? argv[++i]);
    if (flag === "--spans") out.spans = value();
    else if (flag === "--rounds") out.rounds = value();
    else if (flag === "--user-every") out.userEvery = value();
    else throw new Error(`Unknown option ${flag}; known: --spans, --rounds, --user-every`);
  }
  for (const [name, n] of Object.entries(out))
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} takes a whole number of at least 1`);
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const options = parseOptions(argv);
  const base = process.env.DATABASE_URL || LOCAL_POSTGRES;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const name = `bench_span_indexes_${randomBytes(4).toString("hex")}`;
  const load = [loadAverage()];
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  try {
    const handle = await openDatabase({ url: url.toString(), maxConnections: 2 });
    try {
      await migrateDatabase(handle);
      log(`seeding ${options.spans} spans`);
      const shape = { perDay: 20_000, projects: [randomUUID(), randomUUID()], end: Date.now() };
      await seed(handle.db, url.toString(), shape, options.spans, 2);
    } finally {
      await handle.close();
    }
    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      const [current] = await sql<{ indexdef: string }[]>`
        select indexdef from pg_indexes where tablename = 'spans' and indexname = 'spans_actor_key_idx'`;
      if (!current) throw new Error("the schema has no spans_actor_key_idx: update this benchmark");
      const variants: Record<string, string[]> = {
        none: [],
        two_0050: [
          `create index spans_session_key_idx on spans (project_id, start_time desc) where ${SESSION}`,
          `create index spans_user_key_idx on spans (project_id, start_time desc) where ${USER}`,
        ],
        // The parent's definition reads `ON ONLY`, which would leave the partitions unindexed.
        one_now: [current.indexdef.replace(" ON ONLY ", " ON ")],
      };
      await sql.unsafe(`create table staging as select * from spans`);
      await sql.unsafe(`update staging set session_id = coalesce(session_id, 'session-' || trace_id::text)`);
      await sql.unsafe(
        `update staging set user_id = coalesce(user_id, 'user-' || (hashtext(trace_id::text) % 1000)::text)
         where abs(hashtext(span_id::text)) % ${options.userEvery} = 0`,
      );
      const ms: Record<string, number[]> = { none: [], two_0050: [], one_now: [] };
      const order = Object.keys(variants);
      for (let r = 0; r <= options.rounds; r++) {
        for (const variant of r % 2 ? [...order].reverse() : order) {
          await sql.unsafe(`drop index if exists ${ACTOR_INDEXES.join(", ")}`);
          await sql.unsafe(`truncate spans`);
          for (const statement of variants[variant]) await sql.unsafe(statement);
          for (const index of ACTOR_INDEXES.filter((i) => variants[variant].some((d) => d.includes(` ${i} `)))) {
            const [{ missing }] = await sql<{ missing: number }[]>`
              select (select count(*) from pg_inherits where inhparent = 'spans'::regclass)
                   - (select count(*) from pg_inherits where inhparent = ${index}::regclass) as missing`;
            if (Number(missing) !== 0) throw new Error(`${index} is missing on ${missing} partitions`);
          }
          await sql.unsafe(`checkpoint`);
          const started = performance.now();
          await sql.unsafe(`insert into spans select * from staging`);
          const took = performance.now() - started;
          log(`round ${r}${r === 0 ? " (warm-up)" : ""}: ${variant} ${Math.round(took)} ms`);
          if (r > 0) ms[variant].push(took);
        }
      }
      load.push(loadAverage());
      const cost = (variant: string) => round(median(ms[variant].map((t, i) => t / ms.none[i])) - 1);
      return {
        benchmark: "span-indexes",
        options,
        spans_write_ms_median: Object.fromEntries(order.map((v) => [v, Math.round(median(ms[v]))])),
        cost_over_none: { two_0050: cost("two_0050"), one_now: cost("one_now") },
        rounds_ms: Object.fromEntries(order.map((v) => [v, ms[v].map(Math.round)])),
        machine: machine(),
        load_average: load,
      };
    } finally {
      await sql.end();
    }
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

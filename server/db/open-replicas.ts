import type { Database, Executor } from "./database-types";
import { resolveDatabaseUrls } from "./pooler";
import { ReplicaSet, type Replica } from "./replicas";

/** Which replicas each primary database reads from (set when the database is opened with some). */
const replicaSets = new WeakMap<object, ReplicaSet>();

export function replicasOf(db: Executor): ReplicaSet | undefined {
  return replicaSets.get(db);
}

/** A replica's name for health and logs: where it is, never its credentials. */
function replicaName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

/**
 * One postgres.js pool per replica URL (unprepared behind a transaction pooler, as DATABASE_URL's),
 * named `agent-service replica read` in `pg_stat_activity`, and their probes started. Connecting
 * gives up after 2 s, so a replica that stopped answering is skipped soon.
 */
export async function openReplicas(
  primary: Database,
  urls: readonly string[],
  maxLagMs: number,
  maxConnections: number,
): Promise<ReplicaSet> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const clients = urls.map((raw) => {
    const { url, pooler } = resolveDatabaseUrls(raw);
    return postgres(url, {
      max: maxConnections,
      prepare: pooler === "none",
      ...(pooler === "transaction" ? { max_pipeline: 0 } : {}),
      connect_timeout: 2,
      connection: { application_name: "agent-service replica read" },
      onnotice: () => {},
    });
  });
  const replicas: Replica[] = clients.map((client, i) => ({
    name: replicaName(urls[i]),
    db: drizzle(client) as unknown as Database,
    state: "starting",
  }));
  const set = new ReplicaSet(
    primary,
    replicas,
    maxLagMs,
    Math.min(1_000, Math.max(100, Math.round(maxLagMs / 5))),
    async () => {
      await Promise.all(clients.map((client) => client.end({ timeout: 5 })));
    },
  );
  replicaSets.set(primary, set);
  await set.start();
  return set;
}

/**
 * Whether DATABASE_URL reaches PostgreSQL through a transaction-mode pooler (PgBouncer,
 * Supavisor, Neon's pooled endpoint). Such a pooler hands each transaction to any server
 * connection, so nothing that lives on a session survives between two statements: no prepared
 * statement, no LISTEN, no session-level advisory lock or `SET`.
 */
export type PoolerMode = "transaction" | "none";

export interface DatabaseUrls {
  /** The URL the app's pool uses, without the `pgbouncer` marker (PostgreSQL would refuse it). */
  url: string;
  pooler: PoolerMode;
  /** A URL that reaches PostgreSQL with a session of its own (migrations, LISTEN). */
  directUrl?: string;
}

/**
 * `setting` (DATABASE_POOLER) decides when given; otherwise what the operator already said: a
 * `directUrl` (DATABASE_DIRECT_URL) that reaches another server or port than `url` says `url` is
 * the pooled one (the pair Prisma, Neon and Supabase document); then the URL itself:
 * `?pgbouncer=true` (the marker Prisma reads), Neon's `-pooler.` hosts, Supabase's transaction
 * port 6543 on `pooler.supabase.com`, or PgBouncer's default port 6432. A session-mode pooler read
 * as transaction mode only costs speed (no prepared statements); the reverse breaks, so any sign
 * counts. A pooler no sign shows is found at its first missing prepared statement
 * (`pooler-symptoms.ts`).
 */
export function resolveDatabaseUrls(url: string, setting?: PoolerMode, directUrl?: string): DatabaseUrls {
  const parsed = new URL(url);
  const marker = parsed.searchParams.get("pgbouncer");
  parsed.searchParams.delete("pgbouncer");
  const detected =
    marker === "true" ||
    (directUrl !== undefined && new URL(directUrl).host !== parsed.host) ||
    parsed.hostname.includes("-pooler.") ||
    (parsed.hostname.endsWith(".pooler.supabase.com") && parsed.port === "6543") ||
    parsed.port === "6432";
  return {
    url: marker === null ? url : parsed.toString(),
    pooler: setting ?? (detected ? "transaction" : "none"),
    directUrl,
  };
}

/** The URL of another database on the same servers: tests and benches make one per run. */
export function withDatabaseName(urls: DatabaseUrls, name: string): DatabaseUrls {
  const rename = (raw: string) => {
    const url = new URL(raw);
    url.pathname = `/${name}`;
    return url.toString();
  };
  return { ...urls, url: rename(urls.url), directUrl: urls.directUrl && rename(urls.directUrl) };
}

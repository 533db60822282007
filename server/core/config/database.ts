import path from "node:path";
import { z } from "zod";
import { resolveDatabaseUrls, type PoolerMode } from "@/server/db/pooler";
import { configError, invalid } from "./parse";

/** How far behind the primary a read replica may be and still serve reads (REPLICA_MAX_LAG_MS). */
export const DEFAULT_REPLICA_MAX_LAG_MS = 5_000;

/** How long a cache that cannot listen for changes serves an answer (CACHE_TTL_WITHOUT_LISTEN_MS). */
export const DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS = 1_000;

export const databaseEnv = {
  DATABASE_URL: z.string().url().optional(),
  DATABASE_DIRECT_URL: z.string().url().optional(),
  DATABASE_POOLER: z.enum(["transaction", "none"]).optional(),
  DATABASE_REPLICA_URLS: z
    .string()
    .transform((text, ctx) => replicaUrls(text, ctx))
    .optional(),
  REPLICA_MAX_LAG_MS: z.coerce.number().int().positive().default(DEFAULT_REPLICA_MAX_LAG_MS),
  CACHE_TTL_WITHOUT_LISTEN_MS: z.coerce.number().int().min(0).default(DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS),
  DATA_DIR: z.string().default(".data"),
  PGLITE_DIR: z.string().optional(),
  REVISION_CACHE_MAX_ENTRIES: z.coerce.number().int().min(0).default(10_000),
  REVISION_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  REVISION_WATCH_KEEPALIVE_MS: z.coerce.number().int().positive().default(15_000),
};

/** Where the data lives (PostgreSQL or the embedded database) and the caches in front of it. */
export interface DatabaseConfig {
  /** The app's pool; without the `pgbouncer` marker, which only says it is a transaction pooler. */
  databaseUrl?: string;
  /** `transaction`: DATABASE_URL is a transaction-mode pooler (server/db/README.md, "Behind a pooler"). */
  databasePooler: PoolerMode;
  /** Sessions of their own (migrations, LISTEN) when DATABASE_URL is a transaction pooler. */
  databaseDirectUrl?: string;
  /**
   * Read replicas of DATABASE_URL (streaming standbys): reads that may be a little stale go to one
   * that has replayed the caller's last write (server/db/README.md, "Read replicas").
   */
  databaseReplicaUrls: string[];
  /** A replica further behind the primary than this is skipped until it catches up. */
  replicaMaxLagMs: number;
  /**
   * How long the revision and API key caches serve an answer when they cannot listen for changes
   * (a transaction pooler without DATABASE_DIRECT_URL); 0 turns them off there.
   */
  cacheTtlWithoutListenMs: number;
  dataDir: string;
  pgliteDir: string;
  /** The in-process cache of resolved retrieves (0 entries turns it off) and the watch stream's keepalive. */
  revisionCache: { maxEntries: number; maxBytes: number; watchKeepaliveMs: number };
}

type DatabaseEnv = z.output<z.ZodObject<typeof databaseEnv>> & { VERCEL?: string };

export function databaseConfig(c: DatabaseEnv): DatabaseConfig {
  if (c.VERCEL && !c.DATABASE_URL) {
    throw configError([
      "DATABASE_URL: the embedded database does not persist on Vercel (each function instance starts empty); set DATABASE_URL to a PostgreSQL database",
    ]);
  }
  if (!c.DATABASE_URL && (c.DATABASE_DIRECT_URL || c.DATABASE_POOLER)) {
    throw configError([
      "DATABASE_URL: DATABASE_DIRECT_URL and DATABASE_POOLER describe a PostgreSQL DATABASE_URL; set it too, or unset them for the embedded database",
    ]);
  }
  if (!c.DATABASE_URL && c.DATABASE_REPLICA_URLS) {
    throw configError([
      "DATABASE_REPLICA_URLS: read replicas are replicas of a PostgreSQL DATABASE_URL (the embedded database has none); set DATABASE_URL to their primary, or unset DATABASE_REPLICA_URLS",
    ]);
  }
  const database = c.DATABASE_URL
    ? resolveDatabaseUrls(c.DATABASE_URL, c.DATABASE_POOLER, c.DATABASE_DIRECT_URL)
    : { url: undefined, pooler: "none" as const, directUrl: undefined };
  return {
    databaseUrl: database.url,
    databasePooler: database.pooler,
    databaseDirectUrl: database.directUrl,
    databaseReplicaUrls: c.DATABASE_REPLICA_URLS ?? [],
    replicaMaxLagMs: c.REPLICA_MAX_LAG_MS,
    cacheTtlWithoutListenMs: c.CACHE_TTL_WITHOUT_LISTEN_MS,
    dataDir: c.DATA_DIR,
    pgliteDir: c.PGLITE_DIR ?? path.join(c.DATA_DIR, "pglite"),
    revisionCache: {
      maxEntries: c.REVISION_CACHE_MAX_ENTRIES,
      maxBytes: c.REVISION_CACHE_MAX_BYTES,
      watchKeepaliveMs: c.REVISION_WATCH_KEEPALIVE_MS,
    },
  };
}

/** Comma-separated postgres:// URLs, each named by its position when it is not one. */
function replicaUrls(text: string, ctx: z.RefinementCtx): string[] {
  const urls = text.split(",").map((part) => part.trim());
  urls.forEach((url, i) => {
    const protocol = URL.canParse(url) ? new URL(url).protocol : undefined;
    if (protocol !== "postgres:" && protocol !== "postgresql:") {
      invalid(
        ctx,
        `entry ${i + 1} (${JSON.stringify(url.replace(/\/\/[^@/]*@/, "//…@"))}) is not a postgres:// URL; give one or more replica URLs separated by commas`,
      );
    }
  });
  return urls;
}

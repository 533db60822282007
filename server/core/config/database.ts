import path from "node:path";
import { z } from "zod";
import { resolveDatabaseUrls, type PoolerMode } from "@/server/db/pooler";
import { configError } from "./parse";

/** How long a cache that cannot listen for changes serves an answer (CACHE_TTL_WITHOUT_LISTEN_MS). */
export const DEFAULT_CACHE_TTL_WITHOUT_LISTEN_MS = 1_000;

export const databaseEnv = {
  DATABASE_URL: z.string().url().optional(),
  DATABASE_DIRECT_URL: z.string().url().optional(),
  DATABASE_POOLER: z.enum(["transaction", "none"]).optional(),
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
  const database = c.DATABASE_URL
    ? resolveDatabaseUrls(c.DATABASE_URL, c.DATABASE_POOLER, c.DATABASE_DIRECT_URL)
    : { url: undefined, pooler: "none" as const, directUrl: undefined };
  return {
    databaseUrl: database.url,
    databasePooler: database.pooler,
    databaseDirectUrl: database.directUrl,
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

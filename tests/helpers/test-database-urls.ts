import { resolveDatabaseUrls, type DatabaseUrls, type PoolerMode } from "@/server/db";

/**
 * The PostgreSQL servers the tests run on: DATABASE_URL (a pooler is read from it or from
 * DATABASE_POOLER, as the server reads them), and behind a pooler TEST_DATABASE_DIRECT_URL, the
 * server itself, where databases are created and dropped and which each test app gets as its
 * direct URL. Not DATABASE_DIRECT_URL: processes the tests spawn inherit the environment, and
 * that would point them at the base database instead of their test file's. Undefined on PGlite.
 */
export function testDatabaseUrls(): DatabaseUrls | undefined {
  const url = process.env.DATABASE_URL;
  if (!url) return undefined;
  return resolveDatabaseUrls(
    url,
    process.env.DATABASE_POOLER as PoolerMode | undefined,
    process.env.TEST_DATABASE_DIRECT_URL || undefined,
  );
}

import { countDeleted, type Executor } from "@/server/db";

/**
 * One bounded delete of OAuth rows that can no longer do anything, whatever the project's
 * retention settings: codes past their 10 minutes (used or not), and grants whose refresh token
 * expired or that were revoked (rotation revokes the old row). At most `limit` rows of each
 * table, skipping rows a writer holds. Returns the rows deleted; run by the retention pass.
 */
export async function deleteExpiredOAuthRows(db: Executor, now: Date, limit: number): Promise<number> {
  const at = now.toISOString();
  const codes = await countDeleted(
    db,
    `delete from oauth_codes where code_hash in (
       select code_hash from oauth_codes where expires_at < $1 limit $2 for update skip locked)`,
    [at, limit],
  );
  const tokens = await countDeleted(
    db,
    `delete from oauth_tokens where id in (
       select id from oauth_tokens
        where revoked_at is not null or coalesce(refresh_expires_at, expires_at) < $1
        limit $2 for update skip locked)`,
    [at, limit],
  );
  return codes + tokens;
}

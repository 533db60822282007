import { and, eq, inArray } from "drizzle-orm";
import { contentHash } from "@/server/core/stable-json";
import { newId } from "@/server/core/ids";
import { NotFoundError } from "@/server/core/errors";
import { toPage, windowClause, type Page, type Windowing } from "@/server/core/windowing";
import type { Executor } from "@/server/db";
import { testcases } from "@/server/db/schema";

export type TestcaseRecord = typeof testcases.$inferSelect;

/**
 * Testcase ids are stable by content: a row committed again unchanged (in any later revision of
 * the same testset) gets the id it had. Every row is its own testcase: the second copy of a row
 * is keyed by its content and `#2` (the third `#3`, ...), so a revision with duplicate rows lists
 * as many testcases as rows, by revision and by testcase query alike. Returns one id per row, in order.
 */
export async function upsertTestcases(
  db: Executor,
  projectId: string,
  testsetId: string,
  rows: Record<string, unknown>[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const copies = new Map<string, number>();
  const hashes = rows.map((row) => {
    const hash = contentHash(row);
    const n = (copies.get(hash) ?? 0) + 1;
    copies.set(hash, n);
    return n === 1 ? hash : `${hash}#${n}`;
  });
  const idByHash = await existingIds(db, testsetId, hashes);
  const missing = new Map<string, Record<string, unknown>>();
  hashes.forEach((h, i) => {
    if (!idByHash.has(h)) missing.set(h, rows[i]);
  });
  if (missing.size > 0) {
    await db
      .insert(testcases)
      .values([...missing].map(([hash, data]) => ({ id: newId(), projectId, testsetId, contentHash: hash, data })))
      .onConflictDoNothing();
    for (const [h, id] of await existingIds(db, testsetId, [...missing.keys()])) idByHash.set(h, id);
  }
  return hashes.map((h) => idByHash.get(h)!);
}

async function existingIds(db: Executor, testsetId: string, hashes: string[]): Promise<Map<string, string>> {
  const found = await db
    .select({ id: testcases.id, hash: testcases.contentHash })
    .from(testcases)
    .where(and(eq(testcases.testsetId, testsetId), inArray(testcases.contentHash, [...new Set(hashes)])));
  return new Map(found.map((r) => [r.hash, r.id]));
}

export async function getTestcase(db: Executor, projectId: string, id: string): Promise<TestcaseRecord> {
  const [row] = await db
    .select()
    .from(testcases)
    .where(and(eq(testcases.projectId, projectId), eq(testcases.id, id)));
  if (!row) throw new NotFoundError(`testcase ${id} does not exist`);
  return row;
}

export interface TestcaseQuery {
  ids?: string[];
  testsetId?: string;
  windowing?: Windowing;
}

export async function queryTestcases(
  db: Executor,
  projectId: string,
  query: TestcaseQuery,
): Promise<Page<TestcaseRecord>> {
  // Testcases list oldest first: the order rows were added in.
  const w = windowClause(testcases, query.windowing, "ascending");
  const rows = await db
    .select()
    .from(testcases)
    .where(
      and(
        eq(testcases.projectId, projectId),
        query.ids
          ? inArray(testcases.id, query.ids.length ? query.ids : ["00000000-0000-0000-0000-000000000000"])
          : undefined,
        query.testsetId ? eq(testcases.testsetId, query.testsetId) : undefined,
        ...w.conditions,
      ),
    )
    .orderBy(w.orderBy)
    .limit(w.limit + 1);
  return toPage(rows, w.limit);
}

/** The project's testcases with these ids, in no particular order; ids it does not have are left out. */
export async function findTestcases(
  db: Executor,
  projectId: string,
  ids: string[],
): Promise<Pick<TestcaseRecord, "id" | "data">[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: testcases.id, data: testcases.data })
    .from(testcases)
    .where(and(eq(testcases.projectId, projectId), inArray(testcases.id, [...new Set(ids)])));
}

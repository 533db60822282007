import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "@/server/db";
import { analyzeGrownTables } from "@/server/db/analyze-grown-tables";
import { statisticsWorker } from "@/server/boot/statistics-worker";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * Polls `probe` until it returns a value (the database publishes row counts within about a second;
 * the deadline leaves room for a loaded host and costs nothing when the value comes in time).
 */
async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}

const lastAnalyzed = async (t: TestApp, table: string) =>
  (
    await rawQuery<{ at: Date | null }>(
      t.database.db,
      `select coalesce(last_analyze, last_autoanalyze) as at from pg_stat_user_tables where relname = '${table}'`,
    )
  )[0]?.at ?? null;

const changedSinceAnalyze = async (t: TestApp, table: string) =>
  Number(
    (
      await rawQuery<{ n: string }>(
        t.database.db,
        `select n_mod_since_analyze as n from pg_stat_user_tables where relname = '${table}'`,
      )
    )[0]?.n ?? 0,
  );

describe("statistics of the bulk tables", () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    ({ key } = await t.newProject());
  });
  afterAll(() => t.close());

  async function commits(n: number) {
    const created = await t.call("POST", "/api/applications/", {
      key,
      body: { application: { slug: `a-${Date.now()}` } },
    });
    const variant = await t.call("POST", "/api/applications/variants/", {
      key,
      body: { application_variant: { application_id: created.body.application.id, slug: "main" } },
    });
    const variantId = variant.body.application_variant.id;
    for (let i = 0; i < n; i++) {
      const res = await t.call("POST", "/api/applications/revisions/commit", {
        key,
        body: { application_revision_commit: { application_variant_id: variantId, data: { n: i } } },
      });
      expect(res.status).toBe(200);
    }
  }

  it("analyzes a table once its changes pass 50 rows + 10%, and not again until they do", async () => {
    await commits(60);
    const analyzed = await eventually(async () => {
      const tables = await analyzeGrownTables(t.database.db);
      return tables.includes("revisions") ? tables : undefined;
    });
    expect(analyzed).toEqual(expect.arrayContaining(["revisions", "events"]));
    expect(await lastAnalyzed(t, "revisions")).not.toBeNull();
    // Nothing changed since: nothing to analyze.
    expect(await analyzeGrownTables(t.database.db)).toEqual([]);
    // 10 commits are below the new threshold (50 + 10% of 60 rows).
    await commits(10);
    // Once the database has published those changes, so the pass below sees them.
    await eventually(async () => ((await changedSinceAnalyze(t, "revisions")) >= 10 ? true : undefined));
    expect(await analyzeGrownTables(t.database.db)).not.toContain("revisions");
  });

  it("the statistics worker analyzes after writes without being asked", async () => {
    const before = await lastAnalyzed(t, "revisions");
    const worker = statisticsWorker.start(t.context);
    try {
      await commits(70);
      await eventually(async () => {
        const at = await lastAnalyzed(t, "revisions");
        return at && (!before || at > before) ? at : undefined;
      }, 60_000);
    } finally {
      await worker.stop();
    }
  });
});

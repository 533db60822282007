import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "@/server/db";
import { analyzeGrownTables } from "@/server/db/analyze-grown-tables";
import { startStatisticsWorker } from "@/server/boot/statistics-worker";
import { eventually } from "../helpers/eventually";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";

const lastAnalyzed = async (t: TestApp, table: string) =>
  (
    await rawQuery<{ at: Date | string | null }>(
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
        body: { application_revision_commit: { application_variant_id: variantId, data: { parameters: { n: i } } } },
      });
      expect(res.status).toBe(200);
    }
  }

  it("analyzes a table once its changes pass 50 rows + 10%, and not again until they do", async () => {
    await commits(60);
    // PostgreSQL publishes a backend's row counts on its own timer (about a second after the
    // backend goes idle) and tells no one: that clock is what is waited for, through the one
    // polling helper.
    const analyzed = await eventually(
      "the 60 commits' row counts to be published and analyzed",
      async () => {
        const tables = await analyzeGrownTables(t.database.db);
        return tables.includes("revisions") && tables;
      },
      { ms: 30_000, intervalMs: 100 },
    );
    expect(analyzed).toEqual(expect.arrayContaining(["revisions", "events"]));
    expect(await lastAnalyzed(t, "revisions")).not.toBeNull();
    // Nothing changed since: nothing to analyze.
    expect(await analyzeGrownTables(t.database.db)).toEqual([]);
    // 10 commits are below the new threshold (50 + 10% of 60 rows).
    await commits(10);
    // Once the database has published those changes (its timer, as above), so the pass below sees them.
    await eventually(
      "the 10 commits' row counts to be published",
      async () => (await changedSinceAnalyze(t, "revisions")) >= 10,
      {
        ms: 30_000,
        intervalMs: 100,
      },
    );
    expect(await analyzeGrownTables(t.database.db)).not.toContain("revisions");
  });

  it("the statistics worker analyzes after writes without being asked", async () => {
    const before = await lastAnalyzed(t, "revisions");
    let analyzedRevisions!: () => void;
    const passed = new Promise<void>((resolve) => (analyzedRevisions = resolve));
    // The worker checks after writes, and again on its idle poll for counts the database had not
    // published yet: the pass that analyzes revisions is awaited.
    const worker = startStatisticsWorker(t.context, (tables) => {
      if (tables.includes("revisions")) analyzedRevisions();
    });
    try {
      await commits(70);
      await within(60_000, "the worker's pass analyzing revisions", passed);
    } finally {
      await worker.stop();
    }
    // The driver gives the timestamp as a Date (PGlite) or as text (postgres.js, raw query).
    const at = await lastAnalyzed(t, "revisions");
    expect(at).not.toBeNull();
    if (before) expect(new Date(at!).getTime()).toBeGreaterThan(new Date(before).getTime());
  });
});

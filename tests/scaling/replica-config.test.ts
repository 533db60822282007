import { describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { openDatabase } from "@/server/db";

describe("read replica configuration", () => {
  const primary = "postgres://postgres@127.0.0.1:5432/app";

  it("reads one or more comma-separated replica URLs and the lag bound", () => {
    const config = loadConfig({
      DATABASE_URL: primary,
      DATABASE_REPLICA_URLS: "postgres://r1:5432/app, postgresql://r2:5433/app",
      REPLICA_MAX_LAG_MS: "1500",
    });
    expect(config.databaseReplicaUrls).toEqual(["postgres://r1:5432/app", "postgresql://r2:5433/app"]);
    expect(config.replicaMaxLagMs).toBe(1500);
    expect(loadConfig({ DATABASE_URL: primary })).toMatchObject({ databaseReplicaUrls: [], replicaMaxLagMs: 5000 });
  });

  it("refuses replicas without a PostgreSQL DATABASE_URL, entries that are not postgres:// URLs, and a bad bound", () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: "postgres://r1:5432/app" })).toThrow(
      /DATABASE_REPLICA_URLS: read replicas are replicas of a PostgreSQL DATABASE_URL/,
    );
    expect(() =>
      loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: "postgres://r1/app,http://user:pw@r2/app" }),
    ).toThrow(/entry 2 \("http:\/\/…@r2\/app"\) is not a postgres:\/\/ URL/);
    expect(() => loadConfig({ DATABASE_URL: primary, REPLICA_MAX_LAG_MS: "0" })).toThrow(/REPLICA_MAX_LAG_MS/);
    expect(() => loadConfig({ DATABASE_URL: primary, REPLICA_MAX_LAG_MS: "soon" })).toThrow(/REPLICA_MAX_LAG_MS/);
  });

  it("the embedded database refuses replicas when opened with some", async () => {
    await expect(openDatabase({ pgliteDir: "memory://", replicaUrls: ["postgres://r1:5432/app"] })).rejects.toThrow(
      /Read replicas need a PostgreSQL DATABASE_URL/,
    );
  });
});

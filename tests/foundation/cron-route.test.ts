import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKGROUND_WORKERS } from "@/server/boot";
import type { BackgroundWorker } from "@/server/worker";
import { createTestApp, type TestApp } from "../helpers/test-app";

const SECRET = "cron-secret-0123456789abcdef";
let t: TestApp;
let disabled: TestApp;
const seen: number[] = [];

// A queue of 250 items in memory, drained through the same registry the real workers join.
let backlog = 250;
const counting: BackgroundWorker = {
  name: "counting",
  start: () => ({ stop: async () => {} }),
  drain: async (_app, limit) => {
    seen.push(limit);
    const handled = Math.min(limit, backlog);
    backlog -= handled;
    return handled;
  },
};
const failing: BackgroundWorker = {
  name: "failing",
  start: () => ({ stop: async () => {} }),
  drain: async () => Promise.reject(new Error("db down")),
};

beforeAll(async () => {
  BACKGROUND_WORKERS.push(counting, failing);
  t = await createTestApp({ cronSecret: SECRET });
  disabled = await createTestApp();
});
afterAll(async () => {
  BACKGROUND_WORKERS.splice(BACKGROUND_WORKERS.indexOf(counting), 2);
  await t.close();
  await disabled.close();
});

describe("GET /api/cron/work", () => {
  it("is disabled without CRON_SECRET", async () => {
    const r = await disabled.call("GET", "/api/cron/work", { headers: { authorization: `Bearer ${SECRET}` } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("cron_disabled");
  });

  it("refuses a missing or wrong secret", async () => {
    expect((await t.call("GET", "/api/cron/work")).status).toBe(401);
    expect((await t.call("GET", "/api/cron/work", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect(seen).toEqual([]);
  });

  it("drains a bounded batch of each worker and reports a failing one by name", async () => {
    const auth = { authorization: `Bearer ${SECRET}` };
    const first = await t.call("GET", "/api/cron/work?limit=100", { headers: auth });
    expect(first.status).toBe(200);
    expect(first.body.workers).toMatchObject({
      counting: { handled: 100 },
      failing: { error: "the drain failed; see the server log" },
    });
    // The real workers registered beside them drain too (nothing queued here).
    for (const name of Object.keys(first.body.workers).filter((n) => n !== "counting" && n !== "failing")) {
      expect(first.body.workers[name], name).toEqual({ handled: 0 });
    }
    await t.call("GET", "/api/cron/work?limit=100", { headers: auth });
    const third = await t.call("GET", "/api/cron/work?limit=100", { headers: auth });
    expect(third.body.workers.counting).toEqual({ handled: 50 });
    expect(backlog).toBe(0);
  });

  it("rejects a limit outside 1..1000", async () => {
    const r = await t.call("GET", "/api/cron/work?limit=5000", { headers: { authorization: `Bearer ${SECRET}` } });
    expect(r.status).toBe(422);
  });
});

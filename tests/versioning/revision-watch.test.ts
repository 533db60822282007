import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revisionCacheFor } from "@/server/versioning/cache/revision-cache";
import { anotherInstance, type AppInstance } from "../helpers/app-instance";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { sseReader } from "../helpers/sse-reader";
import { uniq, whenCacheHears } from "./helpers";

/** Two app instances on one database: one watches, the other deploys and commits. */
describe("revision watch (SSE)", () => {
  let t: TestApp;
  let watcher: AppInstance;
  let writer: AppInstance;
  let key: string;
  const base = "/api/applications";
  const watches: AbortController[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    ({ key } = await t.newProject());
    watcher = await anotherInstance(t, { revisionCache: { ...t.context.config.revisionCache, watchKeepaliveMs: 100 } });
    writer = await anotherInstance(t);
    const cache = revisionCacheFor(watcher.context);
    await whenCacheHears(cache, () => cache.stats().listening, "its listen");
  });
  afterAll(async () => {
    for (const w of watches) w.abort();
    await Promise.all([watcher, writer].map((i) => i?.close()));
    await t?.close();
  });

  const post = async (path: string, body: unknown) => {
    const res = await writer.call("POST", path, { key, body });
    expect(res.status, res.text).toBe(200);
    return res.body as Record<string, any>;
  };
  const watch = async (query: string, headers: Record<string, string> = {}) => {
    const controller = new AbortController();
    watches.push(controller);
    const res = await watcher.open(`${base}/revisions/watch?${query}`, { key, headers, signal: controller.signal });
    return { res, events: res.status === 200 ? sseReader(res) : undefined };
  };
  const nextRevision = async (events: ReturnType<typeof sseReader>) => {
    for (;;) {
      const event = await events.next();
      if (event.event === "revision") return event;
    }
  };

  async function application() {
    const slug = uniq("app");
    const created = await post(`${base}/`, { application: { slug, data: { parameters: { v: 1 } } } });
    const variantId = created.application_variant.id as string;
    const v2 = (
      await post(`${base}/revisions/commit`, {
        application_revision_commit: { application_variant_id: variantId, data: { parameters: { v: 2 } } },
      })
    ).application_revision;
    await post(`${base}/revisions/deploy`, { application_ref: { slug }, environment_ref: { slug: "staging" } });
    return { slug, variantId, v1: created.application_revision, v2 };
  }

  it("sends the deployed revision at once, then a deploy made through another instance within the bound", async () => {
    const app = await application();
    const { res, events } = await watch(`environment_ref.slug=staging&key=${app.slug}.revision`);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const first = await nextRevision(events!);
    expect(first.id).toBe(app.v2.id);
    // The data is what a retrieve answers, byte for byte.
    const retrieved = await writer.call("POST", `${base}/revisions/retrieve`, {
      key,
      body: { environment_ref: { slug: "staging" }, key: `${app.slug}.revision` },
    });
    expect(first.data).toBe(retrieved.text);
    const started = performance.now();
    await post(`${base}/revisions/deploy`, {
      application_revision_ref: { id: app.v1.id },
      environment_ref: { slug: "staging" },
    });
    const moved = await nextRevision(events!);
    const latencyMs = performance.now() - started;
    expect(moved.id).toBe(app.v1.id);
    expect(JSON.parse(moved.data!).application_revision.data).toEqual({ parameters: { v: 1 } });
    // Deploy request included; 200 ms is the target, with slack for a loaded CI machine.
    expect(latencyMs).toBeLessThan(1_000);
  });

  it("follows commits to a watched variant, and resumes after Last-Event-ID without repeating it", async () => {
    const app = await application();
    const { events } = await watch(`application_variant_ref.id=${app.variantId}`, { "last-event-id": app.v2.id });
    await post(`${base}/revisions/commit`, {
      application_revision_commit: { application_variant_id: app.variantId, data: { parameters: { v: 3 } } },
    });
    const next = await nextRevision(events!);
    expect(JSON.parse(next.data!).application_revision.version).toBe("3");
    // A resume from an older revision gets the current one at once.
    const resumed = await watch(`application_variant_ref.id=${app.variantId}`, { "last-event-id": app.v2.id });
    expect((await nextRevision(resumed.events!)).id).toBe(next.id);
  });

  it("keeps the connection alive with comments", async () => {
    const app = await application();
    const { events } = await watch(`application_ref.slug=${app.slug}`);
    await nextRevision(events!);
    expect((await events!.next()).comment).toBe("keepalive");
  });

  it("answers a reference to nothing with 404 and an unknown parameter with 422, before any event", async () => {
    expect((await watch(`application_ref.slug=${uniq("missing")}`)).res.status).toBe(404);
    const bad = await watch("application_ref.name=x");
    expect(bad.res.status).toBe(422);
    expect(await bad.res.text()).toContain("application_ref.name");
  });
});

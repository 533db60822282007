import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { events } from "@/server/db/schema";
import { eventBatcherFor } from "@/server/events/insert-batcher";
import { createFront } from "@/server/boot";
import { shutDown } from "@/server/boot";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it("writes the read events still queued when the server is told to stop, and stops its workers", async () => {
  const { key, projectId } = await t.newProject();
  const server = createServer(
    createFront(t.serve, async (_req, res) => {
      res.writeHead(404).end();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const headers = { authorization: `ApiKey ${key}`, "content-type": "application/json" };
  const created = await fetch(`${origin}/api/applications/`, {
    method: "POST",
    headers,
    body: JSON.stringify({ application: { slug: "drained", data: { parameters: { n: 1 } } } }),
  });
  expect(created.status).toBe(200);
  // SIGTERM arrives the moment the read event is queued, its request still in flight: the batcher
  // then holds the event (it waits 10 ms for company), whatever the machine's load.
  const batcher = eventBatcherFor(t.context.db);
  const enqueue = batcher.enqueue.bind(batcher);
  let backlogAtStop = 0;
  let workerStopped = false;
  let stopped: Promise<void> | undefined;
  vi.spyOn(batcher, "enqueue").mockImplementation((row) => {
    enqueue(row);
    if (stopped || row.eventType !== "applications.revisions.retrieved") return;
    backlogAtStop = batcher.backlog;
    stopped = shutDown(server, { context: t.context, handle: t.handle, serve: t.serve, close: async () => {} }, [
      { stop: async () => void (workerStopped = true) },
    ]);
  });
  const retrieved = await fetch(`${origin}/api/applications/revisions/retrieve`, {
    method: "POST",
    headers,
    body: JSON.stringify({ application_ref: { slug: "drained" } }),
  });
  expect(retrieved.status).toBe(200);
  expect(backlogAtStop).toBeGreaterThan(0);
  await stopped;
  expect(batcher.backlog).toBe(0);
  expect(workerStopped).toBe(true);
  expect(server.listening).toBe(false);
  const rows = await t.context.db.select().from(events).where(eq(events.projectId, projectId));
  expect(rows.map((row) => row.eventType)).toContain("applications.revisions.retrieved");
});

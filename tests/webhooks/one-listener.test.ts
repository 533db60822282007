import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPushWorker } from "@/server/a2a/push-worker";
import { principalCacheFor } from "@/server/auth/principal-cache";
import { rawQuery } from "@/server/db";
import { revisionCacheFor } from "@/server/versioning";
import { startWebhookWorker } from "@/server/webhooks";
import { CHANGE_LISTENER_APPLICATION } from "@/server/worker";
import type { TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { whenCacheHears } from "../versioning/helpers";
import { appFor, commitSomething, subscribe, type Project } from "./helpers";

// PostgreSQL wakes every listening backend of a database for every notifying commit: a process
// keeps one. PGlite delivers in-process, with no backend to count.
describe.skipIf(!process.env.DATABASE_URL)("one listening backend per process", () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let workers: Array<ReturnType<typeof startWebhookWorker>>;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await appFor(receiver);
    // Long idle polls: a delivery within them can only come from a wake-up.
    workers = [startWebhookWorker(t.context, { idleMs: 60_000 }), startPushWorker(t.context, { idleMs: 60_000 })];
    await within(5_000, "the workers to listen", Promise.all(workers.map((w) => w.listening)));
    await cachesListening();
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await t.close();
    await receiver.close();
  });

  const cachesListening = async () => {
    const revisions = revisionCacheFor(t.context);
    const keys = principalCacheFor(t.context.db);
    await whenCacheHears(revisions, () => revisions.stats().listening, "the revision cache to listen", 5_000);
    await within(
      5_000,
      "the key cache to listen",
      keys.when(() => keys.serving),
    );
  };
  const listeningBackends = async () =>
    (
      await rawQuery<{ application_name: string }>(
        t.context.db,
        `select application_name from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and query ilike 'listen%'`,
      )
    ).map((row) => row.application_name);

  it("the caches and the workers' wake-ups listen on one backend, which wakes the worker", async () => {
    expect(await listeningBackends()).toEqual([CHANGE_LISTENER_APPLICATION]);
    const p: Project = { t, ...(await t.newProject()) };
    await subscribe(p, receiver.url());
    await commitSomething(p);
    await receiver.when(() => receiver.succeeded.length === 1, 5_000);
  });

  it("after that backend is terminated, the next one listens for all and a commit still wakes the worker", async () => {
    await rawQuery(
      t.context.db,
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1",
      [CHANGE_LISTENER_APPLICATION],
    );
    const revisions = revisionCacheFor(t.context);
    await whenCacheHears(revisions, () => !revisions.stats().listening, "the revision cache's loss", 5_000);
    await cachesListening();
    expect(await listeningBackends()).toEqual([CHANGE_LISTENER_APPLICATION]);
    const p: Project = { t, ...(await t.newProject()) };
    await subscribe(p, receiver.url());
    const before = receiver.succeeded.length;
    await commitSomething(p);
    await receiver.when(() => receiver.succeeded.length === before + 1, 5_000);
  });
});

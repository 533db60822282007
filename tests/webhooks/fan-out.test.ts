import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, webhookDeliveries } from "@/server/db/schema";
import { emitEvent, drainEvents } from "@/server/events/emit";
import { fanOutEvents } from "@/server/webhooks/fan-out";
import type { TestApp } from "../helpers/test-app";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { appFor, subscribe, type Project } from "./helpers";

let receiver: WebhookReceiver;
let t: TestApp;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await appFor(receiver);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const unfannedOf = (projectId: string) =>
  t.context.db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.projectId, projectId), isNull(events.fannedOutAt)));

describe("fan-out", () => {
  it("marks every claimed event, and makes deliveries only for the projects that subscribe", async () => {
    // Drain whatever earlier setup left in the outbox, so this pass sees only our events.
    while ((await fanOutEvents(t.context.db)).events > 0);
    const quiet: Project = { t, ...(await t.newProject()) };
    const subscribed: Project = { t, ...(await t.newProject()) };
    const sub = await subscribe(subscribed, receiver.url(), { event_types: ["applications.revisions.retrieved"] });
    for (const p of [quiet, subscribed, quiet]) {
      await emitEvent(t.context.db, {
        projectId: p.projectId,
        type: "applications.revisions.retrieved",
        attributes: { n: 1 },
      });
    }
    await drainEvents(t.context.db);
    // Read events no subscription takes are written fanned out already: only the subscriber's is left.
    expect(await unfannedOf(quiet.projectId)).toEqual([]);
    expect(await unfannedOf(subscribed.projectId)).toHaveLength(1);

    const pass = await fanOutEvents(t.context.db);
    expect(pass.events).toBe(1);
    expect(pass.deliveries).toBe(1);
    expect(await unfannedOf(subscribed.projectId)).toEqual([]);
    const deliveries = await t.context.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.subscriptionId, sub.id));
    expect(deliveries).toHaveLength(1);
    const payload = JSON.parse(deliveries[0]!.payload);
    expect(payload).toMatchObject({
      event: { event_type: "applications.revisions.retrieved", attributes: { n: 1 } },
      scope: { project_id: subscribed.projectId },
    });
    expect(Date.parse(payload.event.timestamp)).not.toBeNaN();
    expect(await fanOutEvents(t.context.db)).toEqual({ events: 0, deliveries: 0 });
  });

  it("leaves for fan-out exactly the read events an active subscription takes", async () => {
    while ((await fanOutEvents(t.context.db)).events > 0);
    const p: Project = { t, ...(await t.newProject()) };
    const sub = await subscribe(p, receiver.url(), { event_types: ["applications.revisions.fetched"] });
    const read = (type: string) => emitEvent(t.context.db, { projectId: p.projectId, type, attributes: {} });
    await Promise.all([read("applications.revisions.fetched"), read("applications.revisions.retrieved")]);
    await drainEvents(t.context.db);
    const unfanned = await t.context.db
      .select({ type: events.eventType })
      .from(events)
      .where(and(eq(events.projectId, p.projectId), isNull(events.fannedOutAt)));
    expect(unfanned).toEqual([{ type: "applications.revisions.fetched" }]);

    // Stopped, the subscription takes nothing: the next reads are not left for fan-out.
    expect((await p.t.call("POST", `/api/webhooks/subscriptions/${sub.id}/stop`, { key: p.key })).status).toBe(200);
    await fanOutEvents(t.context.db);
    await read("applications.revisions.fetched");
    await drainEvents(t.context.db);
    expect(await unfannedOf(p.projectId)).toEqual([]);
  });

  it("claims at most `limit` events a pass and leaves the rest for the next", async () => {
    while ((await fanOutEvents(t.context.db)).events > 0);
    const p: Project = { t, ...(await t.newProject()) };
    await subscribe(p, receiver.url());
    for (let i = 0; i < 5; i++)
      await emitEvent(t.context.db, {
        projectId: p.projectId,
        type: "applications.revisions.fetched",
        attributes: { i },
      });
    await drainEvents(t.context.db);
    expect((await fanOutEvents(t.context.db, 3)).events).toBe(3);
    expect(await unfannedOf(p.projectId)).toHaveLength(2);
    expect((await fanOutEvents(t.context.db, 3)).events).toBe(2);
    expect(await unfannedOf(p.projectId)).toEqual([]);
  });
});

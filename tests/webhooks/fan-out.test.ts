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

    const pass = await fanOutEvents(t.context.db);
    expect(pass.events).toBeGreaterThanOrEqual(3);
    expect(pass.deliveries).toBe(1);
    expect(await unfannedOf(quiet.projectId)).toEqual([]);
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

  it("claims at most `limit` events a pass and leaves the rest for the next", async () => {
    while ((await fanOutEvents(t.context.db)).events > 0);
    const p: Project = { t, ...(await t.newProject()) };
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

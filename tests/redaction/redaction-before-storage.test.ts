import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "@/server/db";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { webhookDeliveries } from "@/server/db/schema";
import { emitEvent, drainEvents } from "@/server/events/emit";
import { drainIngestQueue } from "@/server/tracing/ingest/worker";
import { fanOutEvents } from "@/server/webhooks/fan-out";
import type { TestApp } from "../helpers/test-app";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { appFor, subscribe } from "../webhooks/helpers";

// One planted value of each kind; none may be found anywhere after storage.
const PLANTED = {
  email: "planted.person@example.org",
  phone: "+44 20 7946 0958",
  card: "4111 1111 1111 1111",
  iban: "GB82 WEST 1234 5698 7654 32",
  secret: "sk-ant-api03-plantedplantedplanted0123",
  order: "ORD-424242",
};
const SAMPLE = Object.values(PLANTED).join(" | ");
const SETTINGS = {
  kinds: ["email", "phone", "card", "iban", "secret"] as ("email" | "phone" | "card" | "iban" | "secret")[],
  patterns: [{ name: "order", pattern: "ORD-[0-9]{6}" }],
  model_input: false,
};

let receiver: WebhookReceiver;
let t: TestApp;
let key: string;
let projectId: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await appFor(receiver);
  ({ key, projectId } = await t.newProject("redaction"));
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const expectNoPlanted = (text: string) => {
  for (const [kind, value] of Object.entries(PLANTED)) expect(text, kind).not.toContain(value);
};

describe("redaction before storage", () => {
  it("is off until a project turns it on; an invalid pattern is a 400 and saves nothing", async () => {
    expect((await t.call("GET", "/api/redaction/settings", { key })).body.redaction).toEqual({
      kinds: [],
      patterns: [],
      model_input: false,
    });
    const bad = await t.call("PUT", "/api/redaction/settings", {
      key,
      body: { ...SETTINGS, patterns: [{ name: "bad", pattern: "(a)\\1" }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_pattern");
    expect((await t.call("GET", "/api/redaction/settings", { key })).body.redaction.kinds).toEqual([]);
  });

  it("try it: shows what a sample becomes, storing nothing", async () => {
    const tried = await t.call("POST", "/api/redaction/try", { key, body: { text: SAMPLE, settings: SETTINGS } });
    expect(tried.status).toBe(200);
    const viewer = createCaller(
      createContextFrom(t.context, { principal: { projectId, userId: projectId, role: "viewer" } }),
    );
    expect((await viewer.redaction.tryIt({ text: SAMPLE, settings: SETTINGS })).redacted).toBe(tried.body.redacted);
    expect(tried.body.redacted).toBe(
      "[redacted:email] | [redacted:phone] | [redacted:card] | [redacted:iban] | [redacted:secret] | [redacted:order]",
    );
  });

  it("once on (audited), a planted value of each kind is found nowhere: trace, spans table, webhook payload", async () => {
    const saved = await t.call("PUT", "/api/redaction/settings", { key, body: SETTINGS });
    expect(saved.status).toBe(200);
    const audit = await t.call("GET", "/api/audit?action=redaction_settings.updated", { key });
    expect(audit.body.count).toBe(1);
    expect(audit.body.audit_entries[0].after.kinds).toEqual(SETTINGS.kinds);

    const traceId = "c".repeat(31) + "1";
    const ingest = await t.call("POST", "/api/tracing/spans/ingest", {
      key,
      body: {
        spans: [
          {
            trace_id: traceId,
            span_id: "d".repeat(16),
            span_name: `call ${PLANTED.email}`,
            start_time: new Date().toISOString(),
            attributes: { ag: { data: { inputs: { prompt: SAMPLE }, outputs: { text: [SAMPLE] } } } },
            events: [{ name: "note", timestamp: new Date().toISOString(), attributes: { said: SAMPLE } }],
          },
        ],
      },
    });
    expect(ingest.status).toBe(202);
    await drainIngestQueue(t.context);
    const trace = await t.call("GET", `/api/traces/${traceId}`, { key });
    expect(trace.body.count).toBe(1);
    const traceText = JSON.stringify(trace.body);
    expect(traceText).toContain("[redacted:email]");
    expectNoPlanted(traceText);
    const dump = await rawQuery<{ text: string }>(
      t.context.db,
      "select spans::text as text from spans where project_id = $1",
      [projectId],
    );
    expect(dump.length).toBeGreaterThan(0);
    for (const row of dump) expectNoPlanted(row.text);

    const sub = await subscribe({ t, key, projectId, userId: "" }, receiver.url(), {
      event_types: ["applications.revisions.retrieved"],
    });
    await emitEvent(t.context.db, {
      projectId,
      type: "applications.revisions.retrieved",
      attributes: { note: SAMPLE },
    });
    await drainEvents(t.context.db);
    while ((await fanOutEvents(t.context.db)).events > 0);
    const [delivery] = await t.context.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.subscriptionId, sub.id));
    expect(delivery.payload).toContain("[redacted:card]");
    expectNoPlanted(delivery.payload);
  });
});

import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { deliveryIdFor, signatureHeader } from "@/server/webhooks";
import { resolvePayloadFields } from "@/server/webhooks/payload-fields";
import { nextAttemptAt } from "@/server/webhooks/retry-schedule";
import { deliveryHeaders } from "@/server/webhooks/send-attempt";

const EVENT = "019a0000-1111-7222-8333-444455556666";
const SUB = "019a0000-aaaa-7bbb-8ccc-ddddeeeeffff";

describe("webhook building blocks", () => {
  it("delivery ids are deterministic, UUIDv7-shaped and carry the event's time", () => {
    const id = deliveryIdFor(EVENT, SUB);
    expect(id).toBe(deliveryIdFor(EVENT, SUB));
    expect(id).not.toBe(deliveryIdFor(EVENT, "019a0000-aaaa-7bbb-8ccc-ddddeeeeff00"));
    expect(id).toMatch(/^019a0000-1111-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("signs `<t>.<body>` with HMAC-SHA256 in hex", () => {
    const expected = createHmac("sha256", "s3cret").update('1700000000.{"a":1}').digest("hex");
    expect(signatureHeader("s3cret", '{"a":1}', 1700000000)).toBe(`t=1700000000,v1=${expected}`);
  });

  it("user headers never replace the protected ones", () => {
    const { sent, logged } = deliveryHeaders(
      {
        deliveryId: "d",
        eventId: "e",
        eventType: "t",
        url: "https://x",
        payload: "{}",
        authMode: "authorization",
        secret: "tok",
        userHeaders: { "X-Ok": "1", "idempotency-key": "evil", "X-SERVICE-EVENT-ID": "evil", Authorization: "evil" },
      },
      1,
    );
    expect(sent).toMatchObject({
      "X-Ok": "1",
      "Idempotency-Key": "d",
      "X-Service-Event-Id": "e",
      Authorization: "Bearer tok",
    });
    expect(Object.keys(sent).filter((k) => k.toLowerCase() === "idempotency-key")).toHaveLength(1);
    expect(Object.values(sent)).not.toContain("evil");
    expect(logged.Authorization).toBe("[redacted]");
  });

  it("payload_fields: JSONPath, JSON Pointer, literals, null on a miss, depth capped", () => {
    const context = { event: { event_type: "x.y", attributes: { list: [{ id: "a" }], "a/b": 1 } } };
    expect(
      resolvePayloadFields(
        {
          t: "$.event.event_type",
          first: "$.event.attributes.list[0].id",
          p: "/event/attributes/a~1b",
          lit: "hello",
          miss: "$.nope.x",
          n: 3,
          arr: ["$.event.event_type"],
        },
        context,
      ),
    ).toEqual({ t: "x.y", first: "a", p: 1, lit: "hello", miss: null, n: 3, arr: ["x.y"] });
    let deep: unknown = "$.event.event_type";
    for (let i = 0; i < 12; i++) deep = { d: deep };
    expect(JSON.stringify(resolvePayloadFields(deep, context))).toContain("null");
  });

  it("the retry schedule: delays with ±10% jitter, then exhausted", () => {
    const now = new Date(0);
    expect(nextAttemptAt([0, 5000, 300000], 1, now, () => 0.5)!.getTime()).toBe(5000);
    expect(nextAttemptAt([0, 5000, 300000], 1, now, () => 0)!.getTime()).toBe(4500);
    expect(nextAttemptAt([0, 5000, 300000], 2, now, () => 1)!.getTime()).toBe(330000);
    expect(nextAttemptAt([0, 5000, 300000], 3, now)).toBeUndefined();
  });

  it("WEBHOOK_* settings are validated", () => {
    const c = loadConfig({
      WEBHOOK_RETRY_SCHEDULE: "0, 5s, 5m, 2h, 1d, 250ms, 1500",
      WEBHOOK_TIMEOUT_MS: "3000",
      WEBHOOK_DISABLE_AFTER: "12h",
    });
    expect(c.webhookRetryScheduleMs).toEqual([0, 5000, 300000, 7200000, 86400000, 250, 1500]);
    expect(c.webhookTimeoutMs).toBe(3000);
    expect(c.webhookDisableAfterMs).toBe(43200000);
    expect(loadConfig({}).webhookRetryScheduleMs).toEqual([
      0, 5000, 300000, 1800000, 7200000, 18000000, 36000000, 36000000,
    ]);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: "5s,soon" })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_DISABLE_AFTER: "x" })).toThrow(/WEBHOOK_DISABLE_AFTER/);
    expect(() => loadConfig({ EGRESS_ALLOWLIST: "localhost, ::1/200" })).toThrow(/"::1\/200"/);
  });
});

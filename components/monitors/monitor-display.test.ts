import { describe, expect, it } from "vitest";
import type { MonitorWire, NotificationWire } from "@/server/monitors";
import { chartQuery, notificationText, scopeText, windowText } from "./monitor-display";

const monitor = (
  window_seconds: number,
  scope: MonitorWire["scope"] = { kind: "project" },
  name: MonitorWire["metric"]["name"] = "error_rate",
) => ({ window_seconds, scope, metric: { name, focus: "run" as const } });

describe("a monitor in words", () => {
  it("names its scope, the kind in words", () => {
    expect(scopeText({ scope: { kind: "project" } })).toBe("project");
    expect(scopeText({ scope: { kind: "agent", value: "support" } })).toBe("agent support");
    expect(scopeText({ scope: { kind: "api_key", value: "key_1" } })).toBe("api key key_1");
  });

  it("gives its window in the largest whole unit", () => {
    expect(windowText(86_400)).toBe("1 d");
    expect(windowText(172_800)).toBe("2 d");
    expect(windowText(21_600)).toBe("6 h");
    expect(windowText(5_400)).toBe("90 min");
  });
});

describe("chartQuery", () => {
  const now = new Date("2026-03-02T10:17:05.000Z");

  it("draws a day of hours up to the end of the current hour for windows up to a day", () => {
    expect(chartQuery(monitor(86_400), now)).toEqual({
      focus: "run",
      windowing: { oldest: "2026-03-01T11:00:00.000Z", newest: "2026-03-02T11:00:00.000Z", bucket: "hour" },
    });
  });

  it("draws a fortnight of days up to the end of the current UTC day for longer windows", () => {
    expect(chartQuery(monitor(7 * 86_400), now).windowing).toEqual({
      oldest: "2026-02-17T00:00:00.000Z",
      newest: "2026-03-03T00:00:00.000Z",
      bucket: "day",
    });
  });

  it("narrows to the monitor's scope and groups a score by evaluator", () => {
    const query = chartQuery(monitor(3_600, { kind: "model", value: "gpt-4o" }, "score_mean"), now);
    expect(query.filtering).toEqual({ conditions: [{ field: "model", value: "gpt-4o" }] });
    expect(query.group_by).toBe("evaluator");
  });
});

describe("notificationText", () => {
  const n = (fields: Partial<NotificationWire>): NotificationWire => ({
    id: "n",
    alert_id: "a",
    channel: 0,
    kind: "slack",
    status: "pending",
    attempts: 0,
    created_at: "2026-03-02T10:00:00.000Z",
    ...fields,
  });

  it("says a failed post failed, after how many attempts and why", () => {
    expect(notificationText(n({ status: "failed", attempts: 5, last_error: "HTTP 404: no_service" }))).toEqual({
      tone: "danger",
      label: "Slack failed",
      detail: "after 5 attempts: HTTP 404: no_service",
    });
  });

  it("tells a retry from a first send, and a sent message from both", () => {
    expect(notificationText(n({ kind: "github", attempts: 1, last_error: "ECONNREFUSED: connect" }))).toEqual({
      tone: "warning",
      label: "GitHub retrying",
      detail: "1 attempt failed: ECONNREFUSED: connect",
    });
    expect(notificationText(n({ kind: "teams" }))).toEqual({ tone: "neutral", label: "Teams sending" });
    expect(notificationText(n({ status: "sent", attempts: 2 }))).toEqual({ tone: "success", label: "Slack sent" });
  });
});

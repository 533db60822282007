import { expect } from "vitest";
import { drainIngestQueue } from "@/server/tracing";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { runSpans } from "../analytics/helpers";
import type { WebhookReceiver } from "../helpers/webhook-receiver";
import { allow } from "../webhooks/helpers";

export interface MonitorFixture {
  t: TestApp;
  key: string;
  projectId: string;
  userId: string;
  /** Sets the app's clock (every instance of the test shares it). */
  setClock(iso: string | Date): void;
  clock(): Date;
  /** The id of the project's agent (workflow) of this slug, created on first use. */
  agentId(slug: string): Promise<string>;
  /** Ingests `n` runs of an agent (by slug) starting at `start`, `errors` of them failed, and writes their roll-ups. */
  runs(agent: string, n: number, errors: number, start?: string): Promise<void>;
  createMonitor(monitor: Record<string, unknown>): Promise<{ id: string; [k: string]: unknown }>;
  alerts(id: string): Promise<
    {
      kind: string;
      state: string;
      value?: number;
      muted: boolean;
      evaluated_at: string;
      notifications: Record<string, any>[];
    }[]
  >;
  monitor(id: string): Promise<Record<string, any>>;
  eventsOf(type: string): Promise<Record<string, any>[]>;
  /** Deletes the project's monitors, so the next test's clock owes them nothing. */
  clear(): Promise<void>;
}

/** An app whose clock the test sets, whose egress may reach the receiver (when given), and a project. */
export async function monitorFixture(receiver?: WebhookReceiver): Promise<MonitorFixture> {
  const t = await createTestApp(
    receiver
      ? {
          egressAllowlist: allow("localhost"),
          egressCa: [receiver.certificate.cert],
          webhookRetryScheduleMs: [0, 40, 80],
          webhookTimeoutMs: 2_000,
        }
      : {},
  );
  let now = new Date();
  t.context.now = () => new Date(now);
  const project = await t.newProject("monitors");
  const agents = new Map<string, Promise<string>>();
  const agentId = (slug: string) => {
    if (!agents.has(slug))
      agents.set(
        slug,
        t
          .call("POST", "/api/workflows/", { key: project.key, body: { workflow: { slug, name: slug } } })
          .then((res) => {
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            return res.body.workflow.id as string;
          }),
      );
    return agents.get(slug)!;
  };
  const f: MonitorFixture = {
    t,
    ...project,
    setClock: (at) => {
      now = new Date(at);
    },
    clock: () => new Date(now),
    agentId,
    async runs(slug, n, errors, start) {
      const at = start ?? new Date(now.getTime() - 20_000).toISOString();
      const agent = await agentId(slug);
      const spans = Array.from(
        { length: n },
        (_, i) => runSpans({ agent, model: "gpt-5-mini", start: at, durationMs: 100 + i, error: i < errors }).spans,
      ).flat();
      const res = await t.call("POST", "/api/tracing/spans/ingest", { key: project.key, body: { spans } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body.dropped).toBeUndefined();
      await drainIngestQueue(t.context);
    },
    async createMonitor(monitor) {
      // An agent scope names the agent by its slug, as a person would: the monitor stores its id.
      const scope = monitor.scope as { kind?: string; value?: string } | undefined;
      if (scope?.kind === "agent" && scope.value) await agentId(scope.value);
      const res = await t.call("POST", "/api/monitors/", { key: project.key, body: { monitor } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.monitor;
    },
    async alerts(id) {
      const res = await t.call("GET", `/api/monitors/${id}/alerts`, { key: project.key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return [...res.body.alerts].reverse();
    },
    async monitor(id) {
      const res = await t.call("GET", `/api/monitors/${id}`, { key: project.key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.monitor;
    },
    async eventsOf(type) {
      const res = await t.call("POST", "/api/events/query", {
        key: project.key,
        body: { event_type: type },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.events;
    },
    async clear() {
      const res = await t.call("GET", "/api/monitors/", { key: project.key });
      for (const m of res.body.monitors)
        expect((await t.call("DELETE", `/api/monitors/${m.id}`, { key: project.key })).status).toBe(204);
    },
  };
  return f;
}

/** An error-rate monitor of one agent over 5 minutes: fires above 20%, resolves at 10% or less. */
export const errorRateMonitor = (agent: string, extra: Record<string, unknown> = {}) => ({
  name: `errors of ${agent}`,
  metric: { name: "error_rate" },
  scope: { kind: "agent", value: agent },
  window_seconds: 300,
  operator: "above",
  threshold: 0.2,
  recovery_threshold: 0.1,
  min_samples: 3,
  ...extra,
});

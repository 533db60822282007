import { parseAllowlist } from "@/server/egress";
import { webhookWorker } from "@/server/webhooks";
import { createTestApp, type TestApp } from "../helpers/test-app";
import type { WebhookReceiver } from "../helpers/webhook-receiver";
import { createArtifact, dataFor, uniq } from "../versioning/helpers";

export const allow = (list: string) => {
  const parsed = parseAllowlist(list);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed.entries;
};

/** A test app whose egress trusts the receiver's certificate and may reach localhost. */
export function appFor(
  receiver: WebhookReceiver,
  overrides: Parameters<typeof createTestApp>[0] = {},
): Promise<TestApp> {
  return createTestApp({
    egressAllowlist: allow("localhost"),
    egressCa: [receiver.certificate.cert],
    webhookRetryScheduleMs: [0, 40, 80],
    webhookTimeoutMs: 2_000,
    ...overrides,
  });
}

export interface Project {
  t: TestApp;
  key: string;
  projectId: string;
  userId: string;
}

export async function subscribe(
  p: Project,
  url: string,
  data: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  const res = await p.t.call("POST", "/api/webhooks/subscriptions/", {
    key: p.key,
    body: { subscription: { name: uniq("hook"), data: { url, ...data } }, ...extra },
  });
  if (res.status !== 200) throw new Error(`subscribe: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.subscription as { id: string; secret: string; [k: string]: unknown };
}

/** A commit, so the outbox gets an `applications.revisions.committed` event. */
export async function commitSomething(p: Project) {
  return createArtifact(p, "applications", { data: dataFor("applications", uniq("m")) });
}

/** Runs drain passes until `done` holds (retries fall due on real, short timers). */
export async function drainUntil(
  t: TestApp,
  done: () => Promise<boolean> | boolean,
  // Ends as soon as `done` holds; the margin is for a loaded CI host.
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("drainUntil: condition not met in time");
    const handled = await webhookWorker.drain(t.context, 100);
    if (handled === 0) await new Promise((r) => setTimeout(r, 15));
  }
}

export async function deliveriesOf(p: Project, filter: Record<string, unknown> = {}) {
  const res = await p.t.call("POST", "/api/webhooks/deliveries/query", { key: p.key, body: { delivery: filter } });
  return res.body.deliveries as { id: string; status: string; attempt_count: number; [k: string]: unknown }[];
}

export async function deliveryOf(p: Project, id: string) {
  const res = await p.t.call("GET", `/api/webhooks/deliveries/${id}`, { key: p.key });
  return res.body.delivery;
}

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { automationPass } from "@/server/automations";
import { automationDeliveries, automations } from "@/server/db/schema";
import { automationFixture, type AutomationFixture } from "./helpers";

/** Test mode of the reference's subscriptions (`flags.is_test`, `POST /subscriptions/test`) over our own events. */
let f: AutomationFixture;
beforeAll(async () => {
  f = await automationFixture();
  f.setClock(new Date());
});
afterAll(async () => {
  await f.close();
});

const call = (method: string, path: string, body?: unknown) => f.t.call(method, path, { key: f.key, body });
const EVENT = "environments.revisions.committed";

const subscription = (name: string, extra: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  subscription: { name, ...extra, data: { event_key: EVENT, ...data } },
});

/** A deploy of the agent's revision: one `environments.revisions.committed` event. */
async function deploy(): Promise<void> {
  const deployed = await call("POST", "/api/workflows/revisions/deploy", {
    workflow_revision_ref: { id: f.revisionId },
    environment_ref: { slug: "production" },
  });
  expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
}

async function runCount(): Promise<number> {
  const runs = await call("GET", "/services/agent/v0/runs?include_nested=true&limit=200");
  expect(runs.status).toBe(200);
  return runs.body.count;
}

/** Every row named `name`, deleted ones too, and their firings. */
async function rowsNamed(name: string) {
  const rows = await f.t.context.db.select().from(automations).where(eq(automations.name, name));
  const firings = [];
  for (const row of rows)
    firings.push(
      ...(await f.t.context.db
        .select()
        .from(automationDeliveries)
        .where(eq(automationDeliveries.automationId, row.id))),
    );
  return { rows, firings };
}

/**
 * Deploys and runs the automations pass until `answer` settles, as the worker would while the
 * request waits; events before the test subscription exists are not its, so it deploys again.
 */
async function driveUntil<T>(answer: Promise<T>): Promise<T> {
  let settled = false;
  void answer.finally(() => {
    settled = true;
  });
  for (let i = 0; i < 20 && !settled; i++) {
    await deploy();
    await automationPass(f.t.context);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return answer;
}

it("a test subscription captures each event as a 200 delivery with is_test, and starts no run", async () => {
  const runsBefore = await runCount();
  const modelCalls = f.model.requests.length;
  // No references (they are not checked), and paused: is_test forces it active.
  const created = await call(
    "POST",
    "/api/triggers/subscriptions/",
    subscription(
      "capture",
      { flags: { is_test: true, is_active: false } },
      { inputs_fields: { kind: "$.event.event_type" } },
    ),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const sub = created.body.subscription;
  expect(sub.flags).toEqual({ is_active: true, is_valid: true, is_test: true });
  expect((await call("GET", `/api/triggers/subscriptions/${sub.id}`)).body.subscription.flags.is_test).toBe(true);

  await deploy();
  await automationPass(f.t.context);
  const query = await call("POST", "/api/triggers/deliveries/query", { delivery: { subscription_id: sub.id } });
  expect(query.body.count).toBe(1);
  const [delivery] = query.body.deliveries;
  expect(delivery).toMatchObject({
    status: { code: "200" },
    subscription_id: sub.id,
    data: { event_key: EVENT, is_test: true, payload: { event_type: EVENT }, inputs: { kind: EVENT } },
  });
  expect(delivery.data.result).toBeUndefined();
  const byCode = await call("POST", "/api/triggers/deliveries/query", {
    delivery: { status: { code: 200 }, subscription_id: sub.id },
  });
  expect(byCode.body.count).toBe(1);
  // Our own API says what happened: captured, no run.
  const own = await call("GET", `/api/automations/${sub.id}/deliveries`);
  expect(own.body.deliveries[0]).toMatchObject({ status: "captured" });
  expect(own.body.deliveries[0].run_id).toBeUndefined();
  // Test on our own route captures too: the workflow is never invoked.
  const tested = await call("POST", `/api/automations/${sub.id}/test`, {});
  expect(tested.body.delivery).toMatchObject({ status: "captured" });
  expect(await runCount()).toBe(runsBefore);
  expect(f.model.requests.length).toBe(modelCalls);
  expect((await call("DELETE", `/api/triggers/subscriptions/${sub.id}`)).status).toBe(204);
});

it("switching is_test off makes references required again", async () => {
  const created = await call(
    "POST",
    "/api/triggers/subscriptions/",
    subscription("switch", { flags: { is_test: true } }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.subscription.id;
  const refused = await call("PUT", `/api/triggers/subscriptions/${id}`, subscription("switch", { id }));
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({ code: "missing_agent", errors: [{ path: "subscription.data.references" }] });
  expect((await call("GET", `/api/triggers/subscriptions/${id}`)).body.subscription.flags.is_test).toBe(true);
  // An unknown agent is refused now too, as for any live subscription.
  const unknown = await call(
    "PUT",
    `/api/triggers/subscriptions/${id}`,
    subscription("switch", { id, flags: { is_test: false } }, { references: { workflow: { slug: "nope" } } }),
  );
  expect(unknown.status).toBe(422);
  const live = await call(
    "PUT",
    `/api/triggers/subscriptions/${id}`,
    subscription(
      "switch",
      { id },
      {
        references: { workflow_revision: { id: f.revisionId } },
        inputs_fields: { messages: [{ role: "user", content: "x" }] },
      },
    ),
  );
  expect(live.status, JSON.stringify(live.body)).toBe(200);
  expect(live.body.subscription.flags).toEqual({ is_active: true, is_valid: true, is_test: false });
  expect((await call("DELETE", `/api/triggers/subscriptions/${id}`)).status).toBe(204);
});

it("POST /subscriptions/test answers the first delivery of the event, then leaves no row behind", async () => {
  const runsBefore = await runCount();
  const answer = call("POST", "/api/triggers/subscriptions/test", subscription("probe"));
  const res = await driveUntil(answer);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({
    count: 1,
    delivery: { status: { code: "200" }, data: { event_key: EVENT, is_test: true, payload: { event_type: EVENT } } },
  });
  const id = res.body.delivery.subscription_id;
  // Purged, not soft-deleted: neither the subscription nor its deliveries can be read.
  expect((await call("GET", `/api/triggers/subscriptions/${id}`)).status).toBe(404);
  expect((await call("GET", `/api/triggers/deliveries/${res.body.delivery.id}`)).status).toBe(404);
  expect(await rowsNamed("probe")).toEqual({ rows: [], firings: [] });
  expect(await runCount()).toBe(runsBefore);
});

it("POST /subscriptions/test answers {count: 0} when no event comes in time, and purges the same", async () => {
  f.t.context.config.triggerTestTimeoutMs = 300;
  try {
    const res = await call("POST", "/api/triggers/subscriptions/test", subscription("quiet"));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ count: 0 });
  } finally {
    f.t.context.config.triggerTestTimeoutMs = 300_000;
  }
  expect(await rowsNamed("quiet")).toEqual({ rows: [], firings: [] });
  // Bad input is the create route's answer, and nothing is made.
  const refused = await call("POST", "/api/triggers/subscriptions/test", subscription("bad", {}, { selector: {} }));
  expect(refused.status).toBe(400);
  expect(refused.body.code).toBe("unsupported_field");
  expect((await call("POST", "/api/triggers/subscriptions/test", { subscription: { name: "x" } })).status).toBe(422);
  expect(await rowsNamed("bad")).toEqual({ rows: [], firings: [] });
});

it("a client that goes away stops the wait, and the test subscription is purged", async () => {
  const abort = new AbortController();
  const answer = f.t.handle(
    new Request("http://localhost/api/triggers/subscriptions/test", {
      method: "POST",
      headers: { authorization: `ApiKey ${f.key}`, "content-type": "application/json" },
      body: JSON.stringify(subscription("gone")),
      signal: abort.signal,
    }),
  );
  // Waiting with the default 300 s: only the abort ends it.
  for (let i = 0; i < 50 && (await rowsNamed("gone")).rows.length === 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect((await rowsNamed("gone")).rows).toHaveLength(1);
  abort.abort();
  await answer.catch(() => undefined);
  expect(await rowsNamed("gone")).toEqual({ rows: [], firings: [] });
});

it("when a live subscription already follows the event, its first new delivery is answered and it stays", async () => {
  const created = await call(
    "POST",
    "/api/triggers/subscriptions/",
    subscription(
      "owner",
      {},
      {
        references: { workflow_revision: { id: f.revisionId } },
        inputs_fields: { messages: [{ role: "user", content: "deployed" }] },
      },
    ),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const owner = created.body.subscription;
  await deploy();
  await automationPass(f.t.context);
  const earlier = await call("POST", "/api/triggers/deliveries/query", { delivery: { subscription_id: owner.id } });
  expect(earlier.body.count).toBe(1);

  const res = await driveUntil(call("POST", "/api/triggers/subscriptions/test", subscription("probe 2")));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({
    count: 1,
    delivery: { subscription_id: owner.id, status: { code: "202" }, data: { is_test: false } },
  });
  // Newer than the subscription's latest delivery when the test began.
  expect(res.body.delivery.id > earlier.body.deliveries[0].id).toBe(true);
  expect(res.body.delivery.id).not.toBe(earlier.body.deliveries[0].id);
  // The subscription and its deliveries stay; no test subscription was made.
  const kept = await call("GET", `/api/triggers/subscriptions/${owner.id}`);
  expect(kept.body.subscription.deleted_at).toBeUndefined();
  expect((await call("GET", `/api/triggers/deliveries/${res.body.delivery.id}`)).status).toBe(200);
  expect((await call("GET", `/api/triggers/deliveries/${earlier.body.deliveries[0].id}`)).status).toBe(200);
  expect(await rowsNamed("probe 2")).toEqual({ rows: [], firings: [] });
});

it("our own API shows a test subscription, and its PUT replaces test as every field", async () => {
  const created = await call(
    "POST",
    "/api/triggers/subscriptions/",
    subscription("own view", { flags: { is_test: true } }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.subscription.id;
  const shown = await call("GET", `/api/automations/${id}`);
  expect(shown.body.automation).toMatchObject({ test: true, is_active: true, references: {} });
  const listed = await call("GET", "/api/automations/");
  expect(listed.body.automations.find((a: { id: string }) => a.id === id)).toMatchObject({ test: true });

  // Sent back with test, it stays a test subscription: references still unchecked.
  const own = { kind: "event", name: "own view", event_types: [EVENT] };
  const kept = await call("PUT", `/api/automations/${id}`, { automation: { ...own, test: true } });
  expect(kept.status, JSON.stringify(kept.body)).toBe(200);
  expect(kept.body.automation.test).toBe(true);
  // Without it, a live subscription is asked for: its references are checked, and none given is refused.
  const refused = await call("PUT", `/api/automations/${id}`, {
    automation: { ...own, input: { messages: [{ role: "user", content: "deployed" }] } },
  });
  expect(refused.status).toBe(400);
  expect(refused.body.code).toBe("missing_agent");
  expect((await call("GET", `/api/triggers/subscriptions/${id}`)).body.subscription.flags.is_test).toBe(true);
  const live = await call("PUT", `/api/automations/${id}`, {
    automation: {
      ...own,
      references: { workflow_revision: { id: f.revisionId } },
      input: { messages: [{ role: "user", content: "deployed" }] },
    },
  });
  expect(live.status, JSON.stringify(live.body)).toBe(200);
  expect(live.body.automation.test).toBeUndefined();
  expect((await call("GET", `/api/triggers/subscriptions/${id}`)).body.subscription.flags.is_test).toBe(false);
  expect((await call("DELETE", `/api/automations/${id}`)).status).toBe(204);
});

it("our own API makes a test subscription with test: true, and refuses test on a schedule or an action", async () => {
  const created = await call("POST", "/api/automations/", {
    automation: { kind: "event", name: "own test", event_types: [EVENT], test: true, is_active: false },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.automation.id;
  // Our own is_active is kept, as for any automation: a paused test subscription.
  expect(created.body.automation).toMatchObject({ test: true, is_active: false });
  expect((await call("POST", `/api/automations/${id}/resume`)).status).toBe(200);
  await deploy();
  await automationPass(f.t.context);
  const deliveries = await call("GET", `/api/automations/${id}/deliveries`);
  expect(deliveries.body.deliveries).toMatchObject([{ status: "captured" }]);
  expect(deliveries.body.deliveries[0].run_id).toBeUndefined();
  expect((await call("DELETE", `/api/automations/${id}`)).status).toBe(204);

  const schedule = await call("POST", "/api/automations/", {
    automation: { kind: "schedule", name: "own test schedule", cron: "0 9 * * *", test: true },
  });
  expect(schedule.status).toBe(422);
  expect(schedule.body.errors).toMatchObject([{ path: "automation.test" }]);
  const action = await call("POST", "/api/automations/", {
    automation: {
      kind: "event",
      name: "own test action",
      event_types: [EVENT],
      test: true,
      action: { kind: "triage", body: { evidence: { kind: "traces", filter: { conditions: [] } } } },
    },
  });
  expect(action.status).toBe(422);
  expect(action.body.errors).toMatchObject([{ path: "automation.test" }]);
  expect((await rowsNamed("own test schedule")).rows).toEqual([]);
  expect((await rowsNamed("own test action")).rows).toEqual([]);
});

it("POST /subscriptions/test watches a live subscription that follows the event as any of its types", async () => {
  // Only the subscription made here follows the event.
  for (const a of (await call("GET", "/api/automations/")).body.automations)
    if (a.kind === "event") expect((await call("DELETE", `/api/automations/${a.id}`)).status).toBe(204);
  const created = await call("POST", "/api/automations/", {
    automation: {
      kind: "event",
      name: "two types",
      event_types: ["evaluations.runs.failed", EVENT],
      references: { workflow_revision: { id: f.revisionId } },
      input: { messages: [{ role: "user", content: "deployed" }] },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const owner = created.body.automation;
  const res = await driveUntil(call("POST", "/api/triggers/subscriptions/test", subscription("probe 3")));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({
    count: 1,
    delivery: { subscription_id: owner.id, status: { code: "202" }, data: { is_test: false } },
  });
  expect(await rowsNamed("probe 3")).toEqual({ rows: [], firings: [] });
});

import { afterAll, beforeAll, expect, it } from "vitest";
import { AUTOMATION_KINDS, type AutomationKind } from "@/server/automations";
import { automationFixture, type AutomationFixture } from "./helpers";

/** The reference's acceptance checks for /triggers, against /api/triggers over our automations. */
let f: AutomationFixture;
beforeAll(async () => {
  f = await automationFixture();
  f.setClock(new Date());
});
afterAll(async () => {
  await f.close();
});

const call = (method: string, path: string, body?: unknown) => f.t.call(method, path, { key: f.key, body });
const missing = "0190a0a0-0000-7000-8000-000000000000";
const schedule = (cron: string, extra: Record<string, unknown> = {}) => ({
  schedule: {
    name: "Every five minutes",
    data: {
      schedule: cron,
      references: { workflow: { slug: "reporter" } },
      inputs_fields: { messages: [{ role: "user", content: "tick" }] },
      ...extra,
    },
  },
});

it("lists and queries schedules, subscriptions and deliveries; unknown ids are 404", async () => {
  for (const kind of ["schedules", "subscriptions"]) {
    const list = await call("GET", `/api/triggers/${kind}/`);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(list.body[kind].length);
    expect((await call("POST", `/api/triggers/${kind}/query`, {})).status).toBe(200);
    expect((await call("GET", `/api/triggers/${kind}/${missing}`)).status).toBe(404);
    expect((await call("DELETE", `/api/triggers/${kind}/${missing}`)).status).toBe(404);
    expect((await call("POST", `/api/triggers/${kind}/${missing}/start`)).status).toBe(404);
  }
  expect((await call("GET", "/api/triggers/deliveries")).status).toBe(200);
  expect((await call("POST", "/api/triggers/deliveries/query", {})).status).toBe(200);
  const unknown = await call("GET", `/api/triggers/deliveries/${missing}`);
  expect(unknown.status).toBe(404);
  expect(unknown.body.detail).toBe("Trigger delivery not found");
});

it("refuses a bad cron, an unknown workflow and the fields it does not implement", async () => {
  for (const cron of ["not-cron", "* * * * * *"])
    expect((await call("POST", "/api/triggers/schedules/", schedule(cron))).status).toBe(400);
  const unknown = await call("POST", "/api/triggers/schedules/", {
    schedule: {
      ...schedule("*/5 * * * *").schedule,
      data: { ...schedule("*/5 * * * *").schedule.data, references: { workflow: { slug: "nope" } } },
    },
  });
  expect(unknown.status).toBe(404);
  const window = await call(
    "POST",
    "/api/triggers/schedules/",
    schedule("*/5 * * * *", { end_time: "2030-01-01T00:00:00Z" }),
  );
  expect(window.status).toBe(400);
  expect(window.body.code).toBe("unsupported_field");
  const noInput = await call("POST", "/api/triggers/schedules/", {
    schedule: { name: "x", data: { schedule: "*/5 * * * *", references: { workflow: { slug: "reporter" } } } },
  });
  expect(noInput.status).toBe(422);
  expect(noInput.body.errors[0].path).toBe("schedule.data.inputs_fields");
});

it("a schedule's lifecycle: create, list, stop and start, replace, soft delete", async () => {
  const created = await call("POST", "/api/triggers/schedules/", schedule("*/5 * * * *"));
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const s = created.body.schedule;
  expect(s.flags.is_active).toBe(true);
  expect(s.data.references).toEqual({ workflow: { slug: "reporter" } });
  expect(s.data).toMatchObject({
    schedule: "*/5 * * * *",
    timezone: "UTC",
    overlap_policy: "skip",
    next_fire_at: expect.any(String),
  });
  expect((await call("GET", "/api/triggers/schedules/")).body.schedules.map((x: any) => x.id)).toContain(s.id);
  expect((await call("POST", `/api/triggers/schedules/${s.id}/stop`)).body.schedule.flags.is_active).toBe(false);
  expect((await call("GET", `/api/triggers/schedules/${s.id}`)).body.schedule.flags.is_active).toBe(false);
  expect((await call("POST", `/api/triggers/schedules/${s.id}/start`)).body.schedule.flags.is_active).toBe(true);
  const replaced = await call("PUT", `/api/triggers/schedules/${s.id}`, schedule("0 * * * *"));
  expect(replaced.status).toBe(200);
  expect(replaced.body.schedule.data).toMatchObject({
    schedule: "0 * * * *",
    references: { workflow: { slug: "reporter" } },
  });
  expect(
    (
      await call("PUT", `/api/triggers/schedules/${s.id}`, {
        schedule: { ...schedule("0 * * * *").schedule, id: missing },
      })
    ).status,
  ).toBe(400);
  expect((await call("DELETE", `/api/triggers/schedules/${s.id}`)).status).toBe(204);
  const gone = await call("GET", `/api/triggers/schedules/${s.id}`);
  expect(gone.status).toBe(200);
  expect(gone.body.schedule).toMatchObject({ deleted_at: expect.any(String), deleted_by_id: expect.any(String) });
  expect((await call("GET", "/api/triggers/schedules/")).body.schedules.map((x: any) => x.id)).not.toContain(s.id);
  expect((await call("POST", "/api/triggers/schedules/query", { schedule: { name: "five" } })).body.count).toBe(0);
  expect((await call("PUT", `/api/triggers/schedules/${s.id}`, schedule("0 * * * *"))).status).toBe(404);
  expect((await call("POST", `/api/triggers/schedules/${s.id}/start`)).status).toBe(404);
});

it("a subscription to a service event and its deliveries in the reference's shape", async () => {
  const created = await call("POST", "/api/triggers/subscriptions/", {
    subscription: {
      name: "on deploy",
      data: {
        event_key: "environments.revisions.committed",
        references: { workflow_revision: { id: f.revisionId } },
        inputs_fields: { messages: [{ role: "user", content: "deployed" }] },
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const sub = created.body.subscription;
  expect(sub).toMatchObject({
    flags: { is_active: true, is_valid: true },
    data: { event_key: "environments.revisions.committed" },
  });
  const fired = await call("POST", `/api/automations/${sub.id}/test`, {});
  expect(fired.body.delivery.status).toBe("started");
  const query = await call("POST", "/api/triggers/deliveries/query", { delivery: { subscription_id: sub.id } });
  expect(query.body.count).toBe(1);
  expect(query.body.deliveries[0]).toMatchObject({
    status: { code: 202, message: "dispatched" },
    subscription_id: sub.id,
    data: { session_id: fired.body.delivery.session_id, result: { run_id: fired.body.delivery.run_id } },
  });
  const one = await call("GET", `/api/triggers/deliveries/${query.body.deliveries[0].id}`);
  expect(one.body.delivery.id).toBe(query.body.deliveries[0].id);
  expect(
    (
      await call("POST", "/api/triggers/deliveries/query", {
        delivery: { status: { code: 409 }, subscription_id: sub.id },
      })
    ).body.count,
  ).toBe(0);
});

/** Where each id a delivery names is looked up; a delivery naming any other `*_id` fails the test below. */
const ROUTE_OF_ID_FIELD: Record<string, string> = {
  automation_id: "/api/automations",
  schedule_id: "/api/triggers/schedules",
  subscription_id: "/api/triggers/subscriptions",
};

it("every id a delivery names resolves at its route, for every kind of automation (inbound triggers included)", async () => {
  const target = {
    references: { workflow_revision: { id: f.revisionId } },
    input: { messages: [{ role: "user", content: "fired" }] },
  };
  // Typed by the kinds: a new kind does not compile until it is fired here too.
  const inputs: Record<AutomationKind, Record<string, unknown>> = {
    schedule: { kind: "schedule", name: "ids: schedule", cron: "0 3 * * *", ...target },
    event: { kind: "event", name: "ids: event", event_types: ["environments.revisions.committed"], ...target },
    inbound: { kind: "inbound", name: "ids: inbound", signature_scheme: "github", ...target },
  };
  const ids = new Map<string, AutomationKind>();
  for (const kind of AUTOMATION_KINDS) {
    const created = await call("POST", "/api/automations/", { automation: inputs[kind] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids.set(created.body.automation.id, kind);
    const fired = await call("POST", `/api/automations/${created.body.automation.id}/test`, {});
    expect(fired.status, JSON.stringify(fired.body)).toBe(200);
  }

  const listed = await call("GET", "/api/triggers/deliveries");
  expect(listed.status).toBe(200);
  const deliveries = listed.body.deliveries as Record<string, unknown>[];
  for (const [id, kind] of ids)
    expect(
      deliveries.some((d) => d.automation_id === id),
      `a delivery of the ${kind}`,
    ).toBe(true);
  for (const d of deliveries) {
    const named = Object.keys(d).filter((k) => k.endsWith("_id") && k !== "event_id");
    expect(named).toContain("automation_id");
    for (const field of named) {
      expect(ROUTE_OF_ID_FIELD, `a route for ${field}`).toHaveProperty(field);
      const res = await call("GET", `${ROUTE_OF_ID_FIELD[field]}/${d[field]}`);
      expect(res.status, `${field} ${d[field]} of a ${ids.get(d.automation_id as string)}'s delivery`).toBe(200);
    }
  }

  // Asked for by the wrong field, an automation's deliveries match nothing.
  const inbound = [...ids].find(([, kind]) => kind === "inbound")![0];
  const schedule = [...ids].find(([, kind]) => kind === "schedule")![0];
  const query = async (delivery: Record<string, string>) =>
    (await call("POST", "/api/triggers/deliveries/query", { delivery })).body.count;
  expect(await query({ subscription_id: inbound })).toBe(0);
  expect(await query({ subscription_id: schedule })).toBe(0);
  expect(await query({ automation_id: inbound })).toBe(1);
  expect(await query({ schedule_id: schedule })).toBe(1);
});

import { afterAll, beforeAll, expect, it } from "vitest";
import { AUTOMATION_KINDS, fireDueSchedules, type AutomationKind } from "@/server/automations";
import { within } from "../helpers/within";
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
      event_key: "cron.tick",
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

it("refuses a bad cron (422, before anything else), an unknown workflow (422) and the fields it does not implement", async () => {
  for (const cron of ["not-cron", "* * * * * *", "99 * * * *"]) {
    const bad = await call("POST", "/api/triggers/schedules/", schedule(cron));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("schedule.data.schedule");
  }
  // The cron is read first: a bad cron with an unknown workflow is still the cron's 422.
  const both = await call("POST", "/api/triggers/schedules/", {
    schedule: {
      name: "x",
      data: { event_key: "cron.tick", schedule: "daily", references: { workflow: { slug: "nope" } } },
    },
  });
  expect(both.body.errors[0].path).toBe("schedule.data.schedule");
  const unknown = await call("POST", "/api/triggers/schedules/", {
    schedule: {
      ...schedule("*/5 * * * *").schedule,
      data: { ...schedule("*/5 * * * *").schedule.data, references: { workflow: { slug: "nope" } } },
    },
  });
  expect(unknown.status).toBe(422);
  expect(unknown.body.errors[0].path).toBe("schedule.data.references");
  const window = await call(
    "POST",
    "/api/triggers/schedules/",
    schedule("*/5 * * * *", { end_time: "2030-01-01T00:00:00Z" }),
  );
  expect(window.status).toBe(400);
  expect(window.body.code).toBe("unsupported_field");
  // The event key is required (it becomes the firings' event type); inputs_fields defaults to "$",
  // the firing's whole context, as the reference's does.
  const bare = { schedule: "*/5 * * * *", references: { workflow: { slug: "reporter" } } };
  // References are required here (the reference saves a schedule without them and fails every firing).
  for (const references of [undefined, {}]) {
    const unbound = await call("POST", "/api/triggers/schedules/", {
      schedule: { name: "x", data: { ...bare, event_key: "cron.tick", references } },
    });
    expect(unbound.status).toBe(400);
    expect(unbound.body).toMatchObject({ code: "missing_agent", errors: [{ path: "schedule.data.references" }] });
  }
  // An environment without the key it is read under (or an artifact that gives one) is the retrieve's 400.
  const keyless = await call("POST", "/api/triggers/schedules/", {
    schedule: {
      name: "x",
      data: { ...bare, event_key: "cron.tick", references: { environment: { slug: "production" } } },
    },
  });
  expect(keyless.status).toBe(400);
  expect(keyless.body.code).toBe("missing_key");
  // A header field's error names it where the reference's body has it, beside data.
  const unnamed = await call("POST", "/api/triggers/schedules/", {
    schedule: { name: "", data: { ...bare, event_key: "cron.tick" } },
  });
  expect(unnamed.status).toBe(422);
  expect(unnamed.body.errors[0].path).toBe("schedule.name");
  const noEventKey = await call("POST", "/api/triggers/schedules/", { schedule: { name: "x", data: bare } });
  expect(noEventKey.status).toBe(422);
  expect(noEventKey.body.errors[0].path).toBe("schedule.data.event_key");
  const noInput = await call("POST", "/api/triggers/schedules/", {
    schedule: { name: "x", data: { ...bare, event_key: "nightly.digest" } },
  });
  expect(noInput.status, JSON.stringify(noInput.body)).toBe(200);
  expect(noInput.body.schedule.data).toMatchObject({ event_key: "nightly.digest", inputs_fields: "$" });
  expect((await call("DELETE", `/api/triggers/schedules/${noInput.body.schedule.id}`)).status).toBe(204);
});

it("a schedule's lifecycle: create, list, stop and start, replace, delete", async () => {
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
  const upper = await call("PUT", `/api/triggers/schedules/${s.id}`, {
    schedule: { ...schedule("0 * * * *").schedule, id: s.id.toUpperCase() },
  });
  expect(upper.status, JSON.stringify(upper.body)).toBe(200);
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
  // Deleted, it is still read by id (the reference's lifecycle test: 200, the same data and flags,
  // deleted_at and deleted_by_id set), and gone from the list, the query, PUT and start.
  const deleted = await call("GET", `/api/triggers/schedules/${s.id}`);
  expect(deleted.status).toBe(200);
  expect(deleted.body.count).toBe(1);
  expect(deleted.body.schedule).toMatchObject({ id: s.id, deleted_by_id: expect.any(String) });
  expect(deleted.body.schedule.deleted_at).toEqual(expect.any(String));
  const { next_fire_at: _, ...replacedData } = replaced.body.schedule.data;
  expect(deleted.body.schedule.data).toEqual(replacedData);
  expect(deleted.body.schedule.flags).toEqual(replaced.body.schedule.flags);
  expect((await call("GET", "/api/triggers/schedules/")).body.schedules.map((x: any) => x.id)).not.toContain(s.id);
  expect((await call("POST", "/api/triggers/schedules/query", { schedule: { name: "five" } })).body.count).toBe(0);
  expect((await call("PUT", `/api/triggers/schedules/${s.id}`, schedule("0 * * * *"))).status).toBe(404);
  expect((await call("POST", `/api/triggers/schedules/${s.id}/start`)).status).toBe(404);
  // Still active by its flags, a deleted schedule fires no more.
  f.setClock(new Date(Date.now() + 2 * 3600_000));
  await fireDueSchedules(f.t.context, 50);
  f.setClock(new Date());
  expect((await call("POST", "/api/triggers/deliveries/query", { delivery: { schedule_id: s.id } })).body.count).toBe(
    0,
  );
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
  expect(sub).toMatchObject({ data: { event_key: "environments.revisions.committed" } });
  expect(sub.flags).toEqual({ is_active: true, is_valid: true, is_test: false });
  const fired = await call("POST", `/api/automations/${sub.id}/test`, {});
  expect(fired.body.delivery.status).toBe("started");
  const query = await call("POST", "/api/triggers/deliveries/query", { delivery: { subscription_id: sub.id } });
  expect(query.body.count).toBe(1);
  expect(query.body.deliveries[0]).toMatchObject({
    // Its Status.code is text in the reference ("202"), and a client compares it so.
    status: { code: "202", message: "dispatched" },
    subscription_id: sub.id,
    data: {
      session_id: fired.body.delivery.session_id,
      result: { run_id: fired.body.delivery.run_id },
      inputs: { messages: [{ role: "user", content: "deployed" }] },
    },
  });
  const one = await call("GET", `/api/triggers/deliveries/${query.body.deliveries[0].id}`);
  expect(one.body.delivery.id).toBe(query.body.deliveries[0].id);
  expect(
    (
      await call("POST", "/api/triggers/deliveries/query", {
        delivery: { status: { code: "409" }, subscription_id: sub.id },
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

it("the reference's schedule body: inputs_fields as a selector template over the event, kept as sent", async () => {
  const inputsFields = {
    now: "$.event.timestamp",
    kind: "$.event.event_type",
    tick: "$.event.attributes.timestamp",
    event: "$.event.event_id",
    named: "/subscription/name",
    missing: "$.event.nope",
    fixed: 3,
  };
  const body = (cron: string) => ({
    schedule: {
      name: "Selector",
      description: "Acceptance test schedule",
      data: {
        event_key: "nightly.digest",
        schedule: cron,
        inputs_fields: inputsFields,
        references: { workflow: { slug: "reporter" } },
      },
    },
  });
  const created = await call("POST", "/api/triggers/schedules/", body("*/5 * * * *"));
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const s = created.body.schedule;
  expect(s.data).toMatchObject({
    event_key: "nightly.digest",
    inputs_fields: inputsFields,
    references: { workflow: { slug: "reporter" } },
  });
  const edited = await call("PUT", `/api/triggers/schedules/${s.id}`, {
    schedule: {
      id: s.id,
      name: s.name,
      description: s.description,
      data: { ...body("0 * * * *").schedule.data, inputs_fields: s.data.inputs_fields },
    },
  });
  expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  expect(edited.body.schedule.data).toMatchObject({ schedule: "0 * * * *", inputs_fields: inputsFields });

  // A firing gives the agent what the template selects from the event, as one user message.
  const seen = f.model.requests.length;
  const fired = await call("POST", `/api/automations/${s.id}/test`, {});
  expect(fired.status, JSON.stringify(fired.body)).toBe(200);
  // The reference's schedule event: its event key as the type, `<schedule id>:<tick>` as the id, the tick as attributes.
  const tick = f.clock().toISOString();
  const expected = {
    now: tick,
    kind: "nightly.digest",
    tick,
    event: `${s.id}:${tick}`,
    named: "Selector",
    missing: null,
    fixed: 3,
  };
  // Other tests' runs may still be calling the model: await the request that carries this run's message.
  const userText = (body: any): string | undefined => body?.input?.at(-1)?.content?.[0]?.text;
  const carries = (body: unknown) => userText(body)?.includes('"nightly.digest"') ?? false;
  await within(
    60_000,
    "the firing's model request",
    (async () => {
      for (let n = seen + 1; !f.model.requests.some((r) => carries(r.body)); n++) await f.model.requestsReceived(n);
    })(),
  );
  expect(JSON.parse(userText(f.model.requests.find((r) => carries(r.body))!.body)!)).toEqual(expected);
  // The delivery records those inputs, as the reference's does, and its payload beside them.
  const delivered = async () =>
    (await call("POST", "/api/triggers/deliveries/query", { delivery: { schedule_id: s.id } })).body.deliveries[0];
  expect((await delivered()).data).toMatchObject({ inputs: expected, payload: { scheduled_at: tick } });
  // They were recorded when it ran: a change since (stopped: its updated_at is in the context) leaves them.
  f.setClock(new Date(f.clock().getTime() + 1000));
  expect((await call("POST", `/api/triggers/schedules/${s.id}/stop`)).status).toBe(200);
  expect((await delivered()).data.inputs).toEqual(expected);

  // Our own input form works beside it, and both forms together are refused.
  const own = await call("POST", "/api/triggers/schedules/", schedule("*/5 * * * *"));
  expect(own.body.schedule.data.inputs_fields).toEqual({ messages: [{ role: "user", content: "tick" }] });
  const mixed = await call("POST", "/api/automations/", {
    automation: {
      kind: "schedule",
      name: "mixed",
      cron: "0 3 * * *",
      references: { workflow: { slug: "reporter" } },
      input: { fields: { now: "$.event.timestamp" }, messages: [{ role: "user", content: "x" }] },
    },
  });
  expect(mixed.status).toBe(422);
  expect(mixed.body.errors[0].path).toBe("input.fields");
  const script = await call("POST", "/api/triggers/schedules/", {
    schedule: {
      name: "script",
      data: {
        schedule: "0 3 * * *",
        inputs_fields: { x: "$..items[?(@.id > 1)]" },
        references: { workflow: { slug: "reporter" } },
      },
    },
  });
  expect(script.status).toBe(422);
});

it("refuses a subscription's provider fields rather than creating one that does something else", async () => {
  const body = (extra: Record<string, unknown>, data: Record<string, unknown> = {}) => ({
    subscription: {
      name: "provider fields",
      ...extra,
      data: {
        event_key: "environments.revisions.committed",
        references: { workflow_revision: { id: f.revisionId } },
        ...data,
      },
    },
  });
  const before = (await call("GET", "/api/triggers/subscriptions/")).body.count;
  // Every reference subscription names a connection; there are none here, as the reference answers an unknown one.
  const connection = await call("POST", "/api/triggers/subscriptions/", body({ connection_id: missing }));
  expect(connection.status).toBe(404);
  expect(connection.body.detail).toMatch(/^Connection not found/);
  for (const [extra, data, field] of [
    [{ flags: { is_valid: false } }, {}, "subscription.flags.is_valid"],
    [{}, { trigger_config: { owner: "acme" } }, "subscription.data.trigger_config"],
    [{}, { selector: { path: "outputs" } }, "subscription.data.selector"],
  ] as const) {
    const refused = await call("POST", "/api/triggers/subscriptions/", body(extra, data));
    expect(refused.status, field).toBe(400);
    expect(refused.body).toMatchObject({ code: "unsupported_field", errors: [{ path: field }] });
  }
  expect((await call("GET", "/api/triggers/subscriptions/")).body.count).toBe(before);
  // Sent with their defaults, they are taken.
  const plain = await call("POST", "/api/triggers/subscriptions/", body({ flags: { is_test: false, is_valid: true } }));
  expect(plain.status, JSON.stringify(plain.body)).toBe(200);
  const id = plain.body.subscription.id;
  const put = await call("PUT", `/api/triggers/subscriptions/${id}`, body({ id, connection_id: missing }));
  expect(put.status).toBe(404);
  expect(put.body.detail).toMatch(/^Connection not found/);
  expect((await call("DELETE", `/api/triggers/subscriptions/${id}`)).status).toBe(204);
});

it("answers an empty integration catalog and no connections, with no provider configured", async () => {
  const providers = await call("GET", "/api/triggers/catalog/providers/");
  expect(providers.status).toBe(200);
  expect(providers.body).toEqual({ count: 0, providers: [] });
  const provider = await call("GET", "/api/triggers/catalog/providers/composio");
  expect(provider.status).toBe(404);
  const connections = await call("POST", "/api/triggers/connections/query");
  expect(connections.status).toBe(200);
  expect(connections.body).toEqual({ count: 0, connections: [] });
  const connection = await call("GET", `/api/triggers/connections/${missing}`);
  expect(connection.status).toBe(404);
});

it("queries triggers by event key and pages them only when windowing is sent; no subscription has a connection", async () => {
  const marker = `q${Date.now().toString(36)}`;
  const made: string[] = [];
  for (const [name, eventKey] of [
    [`${marker} a`, `${marker}.digest`],
    [`${marker} b`, `${marker}.digest`],
    [`${marker} c`, "cron.tick"],
  ]) {
    const created = await call("POST", "/api/triggers/schedules/", {
      schedule: { name, data: { ...schedule("0 3 * * *").schedule.data, event_key: eventKey } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    made.push(created.body.schedule.id);
  }
  const byKey = await call("POST", "/api/triggers/schedules/query", { schedule: { event_key: `${marker}.digest` } });
  expect(byKey.status, JSON.stringify(byKey.body)).toBe(200);
  expect(byKey.body.schedules.map((s: { id: string }) => s.id)).toEqual([made[1], made[0]]);
  expect(byKey.body.windowing).toBeUndefined();
  const first = await call("POST", "/api/triggers/schedules/query", {
    schedule: { name: marker },
    windowing: { limit: 2 },
  });
  expect(first.body.schedules.map((s: { id: string }) => s.id)).toEqual([made[2], made[1]]);
  const second = await call("POST", "/api/triggers/schedules/query", {
    schedule: { name: marker },
    windowing: { limit: 2, next: first.body.windowing.next },
  });
  expect(second.body.schedules.map((s: { id: string }) => s.id)).toEqual([made[0]]);
  expect(second.body.windowing).toBeUndefined();
  const byConnection = await call("POST", "/api/triggers/subscriptions/query", {
    subscription: { connection_id: "01900000-0000-7000-8000-000000000000" },
  });
  expect(byConnection.body).toEqual({ count: 0, subscriptions: [] });
  // The name is matched as written: `_` is no wildcard (the reference's ILIKE would match "a" here).
  const literal = await call("POST", "/api/triggers/schedules/query", { schedule: { name: `${marker}_a` } });
  expect(literal.body.count).toBe(0);
  // A null windowing (what a client serialising its unset fields sends) is no windowing.
  const unwindowed = await call("POST", "/api/triggers/schedules/query", {
    schedule: { name: marker },
    windowing: null,
  });
  expect(unwindowed.status, JSON.stringify(unwindowed.body)).toBe(200);
  expect(unwindowed.body.count).toBe(3);
  const deliveries = await call("POST", "/api/triggers/deliveries/query", { delivery: null, windowing: null });
  expect(deliveries.status, JSON.stringify(deliveries.body)).toBe(200);
  const unknownKey = await call("POST", "/api/triggers/schedules/query", { schedule: { tags: { a: 1 } } });
  expect(unknownKey.status).toBe(422);
  for (const id of made) expect((await call("DELETE", `/api/triggers/schedules/${id}`)).status).toBe(204);
});

it("a schedule's delivery names its event as the reference does, and is found by it and by status code", async () => {
  const start = new Date("2031-03-04T08:58:00.000Z");
  f.setClock(start);
  const created = await call("POST", "/api/triggers/schedules/", {
    schedule: { name: "delivered", data: { ...schedule("0 9 * * *").schedule.data, event_key: "nightly.digest" } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.schedule.id;
  f.setClock("2031-03-04T09:00:30.000Z");
  await fireDueSchedules(f.t.context, 50);
  const tick = "2031-03-04T09:00:00.000Z";
  const query = (delivery: Record<string, unknown>) => call("POST", "/api/triggers/deliveries/query", { delivery });
  const found = await query({ schedule_id: id });
  expect(found.body.count).toBe(1);
  expect(found.body.deliveries[0]).toMatchObject({
    event_id: `${id}:${tick}`,
    schedule_id: id,
    data: { event_key: "nightly.digest", is_test: false, references: { workflow: { slug: "reporter" } } },
  });
  expect((await query({ event_id: `${id}:${tick}` })).body.count).toBe(1);
  // The reference writes the tick `…T09:00:00+00:00`: an id a client builds that way finds it too.
  expect((await query({ event_id: `${id}:2031-03-04T09:00:00+00:00` })).body.count).toBe(1);
  expect((await query({ event_id: `${id}:2031-03-04T10:00:00+01:00` })).body.count).toBe(1);
  expect((await query({ event_id: `${id}:2031-03-04T09:00` })).body.count).toBe(0);
  expect((await query({ event_id: `${id}:2031-03-05T09:00:00.000Z` })).body.count).toBe(0);
  // 200 and 500 are codes no delivery here carries (runs start detached: 202): none match.
  const success = await query({ schedule_id: id, status: { code: 200 } });
  expect(success.status).toBe(200);
  expect(success.body.count).toBe(0);
  expect((await query({ status: { code: 42 } })).status).toBe(400);
  expect((await query({ status: { code: "success" } })).status).toBe(400);
  // The reference's Status as its clients send it: filtered by the code (text or a number) alone.
  // Nothing dispatches here, so the firing is still claimed (102).
  expect(found.body.deliveries[0].status.code).toBe("102");
  for (const status of [{ code: "102" }, { code: 102 }, { code: "102", message: "claimed", type: null }]) {
    const pending = await query({ schedule_id: id, status });
    expect(pending.status, JSON.stringify(pending.body)).toBe(200);
    expect(pending.body.count).toBe(1);
  }
  expect((await call("DELETE", `/api/triggers/schedules/${id}`)).status).toBe(204);
  f.setClock(new Date());
});

it("keeps a trigger's tags and meta, answers them, and gives them to a firing's context", async () => {
  const team = `team-${Date.now().toString(36)}`;
  const created = await call("POST", "/api/triggers/schedules/", {
    schedule: {
      name: "labelled",
      tags: { team },
      meta: { owner: "ops" },
      data: { ...schedule("0 3 * * *").schedule.data, inputs_fields: { team: "$.subscription.tags.team" } },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const s = created.body.schedule;
  expect(s).toMatchObject({ tags: { team }, meta: { owner: "ops" } });
  expect((await call("GET", `/api/triggers/schedules/${s.id}`)).body.schedule).toMatchObject({ tags: { team } });
  const seen = f.model.requests.length;
  expect((await call("POST", `/api/automations/${s.id}/test`, {})).status).toBe(200);
  const userText = (body: any): string | undefined => body?.input?.at(-1)?.content?.[0]?.text;
  await within(
    60_000,
    "the firing's model request",
    (async () => {
      for (let n = seen + 1; !f.model.requests.some((r) => userText(r.body)?.includes(team)); n++)
        await f.model.requestsReceived(n);
    })(),
  );
  const sent = f.model.requests.find((r) => userText(r.body)?.includes(team))!;
  expect(JSON.parse(userText(sent.body)!)).toEqual({ team });
  expect((await call("DELETE", `/api/triggers/schedules/${s.id}`)).status).toBe(204);
});

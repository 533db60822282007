import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { dispatchFirings, fireDueSchedules } from "@/server/automations";
import { automationDeliveries } from "@/server/db/schema";
import { automationFixture, runsEnded, type AutomationFixture } from "./helpers";

/**
 * A delivery answers what its firing ran (references, event key, inputs), recorded when it ran: a
 * later PUT of its trigger changes what the next firing runs, never what an old delivery shows.
 * Its own fixture: the project's redaction settings are set here.
 */
let f: AutomationFixture;
beforeAll(async () => {
  f = await automationFixture();
});
afterAll(async () => {
  await runsEnded(f.t.context);
  await f.close();
});

const call = (method: string, path: string, body?: unknown) => f.t.call(method, path, { key: f.key, body });

it("an old delivery keeps the references, event key and inputs it ran with after a PUT; inputs are stored redacted", async () => {
  const other = await call("POST", "/api/workflows/", {
    workflow: {
      slug: "other-agent",
      name: "other-agent",
      data: { parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" } } } },
    },
  });
  expect(other.status, JSON.stringify(other.body)).toBe(200);
  const redaction = await call("PUT", "/api/redaction/settings", {
    kinds: ["email"],
    patterns: [],
    model_input: false,
  });
  expect(redaction.status, JSON.stringify(redaction.body)).toBe(200);

  f.setClock("2031-05-01T08:58:00.000Z");
  const data = (eventKey: string, slug: string, text: string) => ({
    event_key: eventKey,
    schedule: "0 9 * * *",
    references: { workflow: { slug } },
    inputs_fields: { messages: [{ role: "user", content: `${text} for {{ scheduled_at }}, mail ops@example.com` }] },
  });
  const created = await call("POST", "/api/triggers/schedules/", {
    schedule: { name: "report", data: data("report.old", "reporter", "old report") },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.schedule.id;
  const fire = async (at: string) => {
    f.setClock(at);
    await fireDueSchedules(f.t.context, 10);
    await dispatchFirings(f.t.context, 10);
    // The run ends before the next tick, which the overlap policy (skip) would otherwise pass over.
    await runsEnded(f.t.context);
  };
  await fire("2031-05-01T09:00:30.000Z");

  f.setClock("2031-05-01T10:00:00.000Z");
  const edited = await call("PUT", `/api/triggers/schedules/${id}`, {
    schedule: { id, name: "report", data: data("report.new", "other-agent", "new report") },
  });
  expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  await fire("2031-05-02T09:00:30.000Z");

  const deliveries = async () =>
    (await call("POST", "/api/triggers/deliveries/query", { delivery: { schedule_id: id } })).body.deliveries;
  const [newer, older] = await deliveries();
  // The old firing: what it ran then, its inputs as the redaction rules leave them (the run got them as written).
  expect(older).toMatchObject({
    status: { code: "202" },
    data: {
      event_key: "report.old",
      references: { workflow: { slug: "reporter" } },
      inputs: {
        messages: [{ role: "user", content: "old report for 2031-05-01T09:00:00.000Z, mail [redacted:email]" }],
      },
    },
  });
  // The new firing: the trigger as the PUT left it.
  expect(newer).toMatchObject({
    status: { code: "202" },
    data: {
      event_key: "report.new",
      references: { workflow: { slug: "other-agent" } },
      inputs: {
        messages: [{ role: "user", content: "new report for 2031-05-02T09:00:00.000Z, mail [redacted:email]" }],
      },
    },
  });
  expect(JSON.stringify(await deliveries())).not.toContain("ops@example.com");

  // A firing recorded before migration 0051 kept nothing: it answers its trigger's references and
  // event key as they are now, and no inputs.
  await f.t.context.db
    .update(automationDeliveries)
    .set({ triggerReferences: null, triggerEventType: null, inputs: null })
    .where(eq(automationDeliveries.id, older.id));
  const old = (await deliveries())[1];
  expect(old.id).toBe(older.id);
  expect(old.data).toMatchObject({ event_key: "report.new", references: { workflow: { slug: "other-agent" } } });
  expect(old.data).not.toHaveProperty("inputs");
});

import { afterAll, beforeAll, expect, it } from "vitest";
import { automationPass, matchEvents } from "@/server/automations";
import { automationFixture, runsEnded, type AutomationFixture } from "./helpers";

let f: AutomationFixture;
beforeAll(async () => {
  f = await automationFixture();
  f.setClock(new Date());
});
afterAll(async () => {
  await f.close();
});

const llm = { provider: "openai", model: "gpt-5-mini" };

async function create(automation: Record<string, unknown>) {
  const res = await f.t.call("POST", "/api/automations/", {
    key: f.key,
    body: { automation: { input: { messages: [{ role: "user", content: "Go: {{ event_type }}" }] }, ...automation } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.automation;
}

async function deliveries(id: string) {
  return ((await f.t.call("GET", `/api/automations/${id}/deliveries`, { key: f.key })).body.deliveries as any[])
    .slice()
    .reverse();
}

async function run(runId: string) {
  const res = await f.t.call("GET", `/services/agent/v0/runs/${runId}`, { key: f.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.run;
}

async function commitAndDeploy(system: string) {
  const variant = await f.t.call("POST", "/api/workflows/revisions/retrieve", {
    key: f.key,
    body: { workflow_ref: { slug: "reporter" } },
  });
  const committed = await f.t.call("POST", "/api/workflows/revisions/commit", {
    key: f.key,
    body: {
      workflow_revision_commit: {
        workflow_variant_id: variant.body.workflow_revision.workflow_variant_id,
        message: system,
        data: { parameters: { agent: { llm, harness: { extras: { system } } } } },
      },
    },
  });
  expect(committed.status, JSON.stringify(committed.body)).toBe(200);
  const deployed = await f.t.call("POST", "/api/workflows/revisions/deploy", {
    key: f.key,
    body: {
      workflow_revision_ref: { id: committed.body.workflow_revision.id },
      environment_ref: { slug: "production" },
    },
  });
  expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
  return committed.body.workflow_revision.id as string;
}

it("an environment reference is resolved at each firing: a deploy changes what runs next", async () => {
  const v2 = await commitAndDeploy("first deploy");
  const s = await create({
    kind: "schedule",
    name: "follows production",
    cron: "0 * * * *",
    // A schedule's payload is its times: it has no event_type to fill.
    input: { messages: [{ role: "user", content: "Go at {{ fired_at }}" }] },
    references: { environment: { slug: "production" }, key: "reporter.revision" },
  });
  // Stored as sent: the environment, not the revision it resolved to when saved.
  expect(s.references).toEqual({ environment: { slug: "production" }, key: "reporter.revision" });
  const first = await f.t.call("POST", `/api/automations/${s.id}/test`, { key: f.key, body: {} });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  expect(first.body.delivery).toMatchObject({
    status: "started",
    run_id: expect.any(String),
    session_id: expect.any(String),
  });
  expect((await run(first.body.delivery.run_id)).agent.references.workflow_revision.id).toBe(v2);
  const v3 = await commitAndDeploy("second deploy");
  const second = await f.t.call("POST", `/api/automations/${s.id}/test`, { key: f.key, body: {} });
  expect((await run(second.body.delivery.run_id)).agent.references.workflow_revision.id).toBe(v3);
  await runsEnded(f.t.context);
  expect((await run(second.body.delivery.run_id)).status).toBe("finished");
});

it("a subscription to deploys fires once per deploy event, with the event's attributes in its input", async () => {
  const sub = await create({
    kind: "event",
    name: "after deploy",
    event_types: ["environments.revisions.committed"],
    references: { workflow_revision: { id: f.revisionId } },
  });
  await commitAndDeploy("third deploy");
  await matchEvents(f.t.context, 50);
  await matchEvents(f.t.context, 50);
  await automationPass(f.t.context);
  const rows = await deliveries(sub.id);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ status: "started", payload: { event_type: "environments.revisions.committed" } });
  await runsEnded(f.t.context);
  expect((await run(rows[0].run_id)).status).toBe("finished");
  expect(JSON.stringify(f.model.requests.map((r) => r.body))).toContain("Go: environments.revisions.committed");
});

it("a subscription to finished runs fires for another run, not for the runs it started itself", async () => {
  const sub = await create({
    kind: "event",
    name: "after a run",
    event_types: ["agents.runs.finished"],
    filter: [{ path: "origin", equals: "invoke" }],
    references: { workflow_revision: { id: f.revisionId } },
  });
  const invoked = await f.t.call("POST", "/services/agent/v0/invoke", {
    key: f.key,
    body: { data: { inputs: { messages: [{ role: "user", content: "hi" }] }, parameters: { agent: { llm } } } },
  });
  expect(invoked.status).toBe(200);
  // The invoked run's end, and its agents.runs.finished event, are written: one pass fires once.
  await runsEnded(f.t.context);
  await automationPass(f.t.context);
  const [fired, ...more] = await deliveries(sub.id);
  expect(more).toEqual([]);
  await runsEnded(f.t.context);
  expect((await run(fired.run_id)).status).toBe("finished");
  for (let i = 0; i < 3; i++) await automationPass(f.t.context);
  expect(await deliveries(sub.id)).toHaveLength(1);
});

it("refuses event types it cannot follow and accepts monitors.* ahead of monitors", async () => {
  const refused = await f.t.call("POST", "/api/automations/", {
    key: f.key,
    body: {
      automation: {
        kind: "event",
        name: "reads",
        event_types: ["workflows.revisions.retrieved"],
        references: { workflow_revision: { id: f.revisionId } },
        input: { messages: [{ role: "user", content: "x" }] },
      },
    },
  });
  expect(refused.status).toBe(422);
  expect(refused.body.errors[0].path).toBe("automation.event_types[0]");
  await create({
    kind: "event",
    name: "alerts",
    event_types: ["monitors.alerts.triggered"],
    references: { workflow_revision: { id: f.revisionId } },
  });
});

it("a firing whose tool call needs approval pauses; its session is continued with the answer, as the playground does", async () => {
  const tools = ["read", "write"].map((name) => ({ type: "builtin", name }));
  const created = await f.t.call("POST", "/api/workflows/", {
    key: f.key,
    body: { workflow: { slug: "writer", name: "writer", data: { parameters: { agent: { llm, tools } } } } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const references = { workflow_revision: { id: created.body.workflow_revision.id } };
  const s = await create({
    kind: "schedule",
    name: "writes notes",
    cron: "0 9 * * *",
    references,
    input: { messages: [{ role: "user", content: "Go: " }] },
  });
  const write = { id: "call_w", name: "write", input: { path: "notes.txt", content: "nightly" } };
  f.model.respondWith(undefined);
  f.model.script({ kind: "reply", text: "Saving.", toolCalls: [write] });
  const fired = (await f.t.call("POST", `/api/automations/${s.id}/test`, { key: f.key, body: {} })).body.delivery;
  await runsEnded(f.t.context);
  const paused = await f.t.call("GET", `/services/agent/v0/runs/${fired.run_id}`, { key: f.key });
  expect(paused.body.run.status).toBe("paused");
  const approvalId = paused.body.outputs.pending_interaction.id as string;
  expect(paused.body.outputs.pending_interaction.kind).toBe("user_approval");

  f.model.script({ kind: "reply", text: "Saved the note." });
  const answered = await f.t.call("POST", "/services/agent/v0/invoke", {
    key: f.key,
    body: {
      session_id: fired.session_id,
      references,
      data: {
        inputs: {
          messages: [
            { role: "user", content: "Go: " },
            {
              role: "assistant",
              content: [{ type: "tool_call", toolCallId: write.id, toolName: "write", input: write.input }],
            },
            {
              role: "tool",
              content: [
                {
                  type: "tool_result",
                  tool_call_id: write.id,
                  tool_name: "write",
                  approved: true,
                  interaction_token: approvalId,
                },
              ],
            },
          ],
        },
      },
    },
  });
  expect(answered.status, JSON.stringify(answered.body)).toBe(200);
  expect(answered.body.data.outputs.messages.at(-1)).toEqual({ role: "assistant", content: "Saved the note." });
  const continued = await f.t.call("GET", `/services/agent/v0/runs?include_nested=true`, { key: f.key });
  expect((continued.body.runs as any[]).find((r) => r.continues_run_id === fired.run_id)).toMatchObject({
    session_id: fired.session_id,
    status: "finished",
  });
  f.model.respondWith(() => ({ kind: "reply", text: "done" }));
});

it("a placeholder the payload lacks fails the firing, naming it; a mustache section is refused when saved", async () => {
  const s = await create({
    kind: "schedule",
    name: "needs an issue",
    cron: "0 9 * * *",
    references: { workflow_revision: { id: f.revisionId } },
    input: { messages: [{ role: "user", content: "Triage {{ issue.title }} ({{ constructor }})" }] },
  });
  const fired = await f.t.call("POST", `/api/automations/${s.id}/test`, { key: f.key, body: { payload: {} } });
  expect(fired.body.delivery).toMatchObject({
    status: "failed",
    error: expect.stringContaining("the payload has no issue.title ({{ issue.title }})"),
  });
  const refused = await f.t.call("POST", "/api/automations/", {
    key: f.key,
    body: {
      automation: {
        kind: "schedule",
        name: "sections",
        cron: "0 9 * * *",
        references: { workflow_revision: { id: f.revisionId } },
        input: { messages: [{ role: "user", content: "{{#items}}{{ name }}{{/items}}" }] },
      },
    },
  });
  expect([refused.status, refused.body.code]).toEqual([400, "unsupported_prompt"]);
});

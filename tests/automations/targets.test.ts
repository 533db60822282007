import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { automationInputSchema, automationPass, createAutomation, fireTest } from "@/server/automations";
import { projectMembers } from "@/server/db/schema";
import { automationFixture, runsEnded, type AutomationFixture } from "./helpers";

let f: AutomationFixture;
beforeAll(async () => {
  f = await automationFixture();
  const prompt = {
    messages: [
      { role: "system", content: "You are {{persona}}." },
      { role: "user", content: "Summarise {{topic}} as of {{day}}." },
    ],
    llm_config: { model: "openai/gpt-4o-mini", temperature: 0.2 },
    template_format: "curly",
  };
  for (const application of [
    { slug: "digest", name: "Digest", data: { parameters: { prompt } } },
    { slug: "no-prompt", name: "No prompt", data: { parameters: { other: true } } },
  ]) {
    const created = await f.t.call("POST", "/api/applications/", { key: f.key, body: { application } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  }
});
afterAll(async () => {
  await f.close();
});

const save = (references: Record<string, unknown>, input: Record<string, unknown>) =>
  f.t.call("POST", "/api/automations/", {
    key: f.key,
    body: { automation: { kind: "schedule", name: "digest", cron: "0 * * * *", references, input } },
  });

describe("a prompt application as what an automation runs", () => {
  it("a schedule fires it through a background run: the model gets its prompt with the inputs filled", async () => {
    f.setClock("2026-06-01T09:30:00Z");
    const saved = await save(
      { application: { slug: "digest" } },
      { inputs: { persona: "a terse analyst", topic: "the inbox", day: "{{ scheduled_at }}" } },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = saved.body.automation.id;
    f.setClock("2026-06-01T10:00:01Z");
    await automationPass(f.t.context);
    const listed = await f.t.call("GET", `/api/automations/${id}/deliveries`, { key: f.key });
    const [delivery] = listed.body.deliveries;
    expect(delivery).toMatchObject({ status: "started", scheduled_at: "2026-06-01T10:00:00.000Z" });
    const runPath = `/services/agent/v0/runs/${delivery.run_id}`;
    await runsEnded(f.t.context);
    const run = (await f.t.call("GET", runPath, { key: f.key })).body.run;
    expect(run).toMatchObject({
      status: "finished",
      origin: "automation",
      background: true,
      session_id: `automation-${delivery.id}`,
    });
    const sent = f.model.requests.at(-1)!.body;
    expect(sent).toMatchObject({ model: "gpt-4o-mini", temperature: 0.2 });
    expect(sent.input).toEqual([
      { role: "system", content: "You are a terse analyst." },
      {
        role: "user",
        content: [{ type: "input_text", text: "Summarise the inbox as of 2026-06-01T10:00:00.000Z." }],
      },
    ]);
  });

  it("refuses what is neither an agent with messages nor a prompt application with its inputs", async () => {
    const notAnAgent = await f.t.call("POST", "/api/workflows/", {
      key: f.key,
      body: { workflow: { slug: "not-agent", name: "not agent", data: { parameters: { other: true } } } },
    });
    expect(notAnAgent.status, JSON.stringify(notAnAgent.body)).toBe(200);
    const agent = { workflow_revision: { id: f.revisionId } };
    const messages = [{ role: "user", content: "hi" }];
    for (const [references, input, status, code, says] of [
      [agent, { messages, inputs: { a: "b" } }, 400, "inputs_not_used", "an agent takes input.messages"],
      [agent, {}, 400, "missing_messages", "an agent needs at least one message"],
      [{ application: { slug: "digest" } }, { messages }, 400, "messages_not_used", "input.inputs instead"],
      [
        { application: { slug: "digest" } },
        { inputs: { persona: "p", day: "d" } },
        400,
        "missing_variable",
        "input.inputs.topic",
      ],
      [{ application: { slug: "no-prompt" } }, { inputs: {} }, 400, "not_a_prompt_application", "no runnable"],
      [{ application: { slug: "missing" } }, { inputs: {} }, 404, undefined, ""],
      [{ ...agent, application: { slug: "digest" } }, { inputs: {} }, 400, "ambiguous_target", "not both"],
      [
        { workflow_revision: { id: notAnAgent.body.workflow_revision.id } },
        { messages },
        400,
        "not_an_agent",
        "or a prompt application (references.application*)",
      ],
    ] as const) {
      const res = await save(references, input);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      if (code) expect(res.body).toMatchObject({ code, detail: expect.stringContaining(says) });
    }
  });
});

describe("the creator's membership at firing time", () => {
  it("a creator demoted to viewer, then removed, gets a failed delivery saying why", async () => {
    const other = await f.t.newProject("creator");
    await f.t.context.db
      .insert(projectMembers)
      .values({ projectId: f.projectId, userId: other.userId, role: "member" });
    const membership = and(eq(projectMembers.projectId, f.projectId), eq(projectMembers.userId, other.userId));
    const { row } = await createAutomation(
      f.t.context,
      { projectId: f.projectId, userId: other.userId, role: "member" },
      automationInputSchema.parse({
        kind: "inbound",
        name: "by a member",
        signature_scheme: "github",
        references: { workflow_revision: { id: f.revisionId } },
        input: { messages: [{ role: "user", content: "go" }] },
      }),
    );
    expect((await fireTest(f.t.context, f.projectId, row.id)).status).toBe("started");

    await f.t.context.db.update(projectMembers).set({ role: "viewer" }).where(membership);
    const demoted = await fireTest(f.t.context, f.projectId, row.id);
    expect(demoted).toMatchObject({ status: "failed", runId: null });
    expect(demoted.error).toContain("now a viewer, who cannot run agents");

    await f.t.context.db.delete(projectMembers).where(membership);
    const gone = await fireTest(f.t.context, f.projectId, row.id);
    expect(gone).toMatchObject({ status: "failed", runId: null });
    expect(gone.error).toContain("no longer a member of the project");
  });
});

import { Role, TaskState, type Message, type StreamResponse, type Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { runsRecorded } from "../helpers/after-runs";
import { attribute, traceSpans } from "../helpers/run-trace";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;
let projectId: string;
let base: string;

const withKey =
  (token: string): typeof fetch =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("Authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };

/** The SDK's client, from the agent card at the agent's well-known URL, speaking protocol 1.0 or 0.3. */
async function a2aClient(token: string, legacy = false): Promise<Client> {
  const fetchImpl = withKey(token);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  const client = await factory.createFromUrl(`${base}/`);
  if (!legacy) return client;
  const card = await new DefaultAgentCardResolver({ fetchImpl }).resolve(`${base}/`);
  card.supportedInterfaces = card.supportedInterfaces.filter((i) => i.protocolVersion === "0.3");
  return factory.createFromAgentCard(card);
}

const userText = (text: string, contextId = ""): Message => ({
  messageId: crypto.randomUUID(),
  contextId,
  taskId: "",
  role: Role.ROLE_USER,
  parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const send = (text: string, contextId = "", returnImmediately = false) => ({
  tenant: "",
  message: userText(text, contextId),
  configuration: {
    acceptedOutputModes: ["text/plain"],
    taskPushNotificationConfig: undefined,
    returnImmediately,
  },
  metadata: undefined,
});

const replyOf = (task: Task) =>
  task.artifacts
    .flatMap((a) => a.parts)
    .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
    .join("");

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    providerEnv: { openai: { key: "sk-a2a", baseUrl: model.baseUrl } },
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
  });
  live = await serveOverHttp(app);
  ({ key, projectId } = await app.newProject());
  const created = await app.call("POST", "/api/workflows/", {
    key,
    body: {
      workflow: {
        slug: "greeter",
        name: "Greeter",
        description: "Greets people in German.",
        data: {
          parameters: {
            agent: { instructions: { agents_md: "Greet in German." }, llm: { model: "openai/gpt-5-mini" }, tools: [] },
          },
        },
      },
    },
  });
  expect(created.status).toBe(200);
  const deployed = await app.call("POST", "/api/workflows/revisions/deploy", {
    key,
    body: { workflow_revision_ref: { id: created.body.workflow_revision.id }, environment_ref: { slug: "production" } },
  });
  expect(deployed.status).toBe(200);
  const exposed = await app.call("PUT", "/api/exposure", {
    key,
    body: { exposures: [{ kind: "agent", slug: "greeter", environment: "production" }] },
  });
  expect(exposed.status, JSON.stringify(exposed.body)).toBe(200);
  base = `${live.origin}/services/a2a/v0/${projectId}/greeter@production`;
});
afterAll(async () => {
  await live?.close();
  await app?.close();
  await model?.close();
});

describe("an exposed agent as an A2A agent, through @a2a-js/sdk's client", () => {
  it("serves its card at the well-known URL: name, description, skill, JSON-RPC endpoint, bearer scheme", async () => {
    const res = await fetch(`${base}/.well-known/agent-card.json`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const card = await res.json();
    expect(card).toMatchObject({
      name: "Greeter",
      description: "Greets people in German.",
      capabilities: { streaming: true, pushNotifications: true },
      skills: [{ id: "greeter@production", name: "Greeter" }],
    });
    expect(card.supportedInterfaces, JSON.stringify(card.supportedInterfaces)).toContainEqual(
      expect.objectContaining({ url: base, protocolBinding: "JSONRPC" }),
    );
    expect(card.securitySchemes.apiKey.httpAuthSecurityScheme).toMatchObject({ scheme: "bearer" });
  });

  it("message/send (0.3) and SendMessage (1.0) answer a completed task whose reply is the agent's answer, recorded as an a2a run", async () => {
    for (const legacy of [true, false]) {
      model.script({ kind: "reply", text: legacy ? "Hallo!" : "Guten Tag!" });
      const client = await a2aClient(key, legacy);
      const task = (await client.sendMessage(send("hi"))) as Task;
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(replyOf(task)).toBe(legacy ? "Hallo!" : "Guten Tag!");
      expect(task.contextId).toBeTruthy();
      await runsRecorded(app.context);
      const run = await app.call("GET", `/services/agent/v0/runs/${task.id}`, { key });
      expect(run.status).toBe(200);
      expect(run.body.run).toMatchObject({ origin: "a2a", session_id: task.contextId, status: "finished" });
      const got = await client.getTask({ tenant: "", id: task.id });
      expect(replyOf(got)).toBe(replyOf(task));
      expect(got.history.map((m) => m.role)).toEqual([Role.ROLE_USER, Role.ROLE_AGENT]);
    }
  });

  it("records the door on the run's root span; like invoke, a call writes no audit entry", async () => {
    const audit = async () => (await app.call("GET", "/api/audit?limit=100", { key })).body;
    const before = await audit();
    model.script({ kind: "reply", text: "Servus." }, { kind: "reply", text: "Moin." });
    const invoked = await app.call("POST", "/services/agent/v0/invoke", {
      key,
      body: {
        references: { workflow: { slug: "greeter" }, environment: { slug: "production" } },
        data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
      },
    });
    expect(invoked.status).toBe(200);
    const task = (await (await a2aClient(key)).sendMessage(send("hi"))) as Task;
    // Answered once the run's end is recorded: read right after, it has ended.
    const run = await app.call("GET", `/services/agent/v0/runs/${task.id}`, { key });
    expect(run.body.run.status).toBe("finished");
    await runsRecorded(app.context);
    const doors: Record<string, string> = {};
    for (const traceId of [invoked.body.trace_id, run.body.run.trace_id]) {
      const root = (await traceSpans(app, key, traceId, 3)).find((span) => span.span_name.startsWith("invoke_agent"))!;
      doors[traceId] = attribute(root, "ag.meta.run.door") as string;
    }
    expect(Object.values(doors)).toEqual(["invoke", "a2a"]);
    expect(await audit()).toEqual(before);
  });

  it("a second message in the same context continues the agent session", async () => {
    const client = await a2aClient(key);
    model.script({ kind: "reply", text: "Eins." });
    const first = (await client.sendMessage(send("first"))) as Task;
    model.script({ kind: "reply", text: "Zwei." });
    const second = (await client.sendMessage(send("second", first.contextId))) as Task;
    expect(second.contextId).toBe(first.contextId);
    expect(second.id).not.toBe(first.id);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("Eins.");
  });

  it("message/stream sends the task, the answer in chunks and the final status", async () => {
    model.script({ kind: "reply", text: "Guten Tag, wie geht es?", chunks: 4 });
    const client = await a2aClient(key);
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(send("hi"))) events.push(event);
    expect(events[0].payload?.$case).toBe("task");
    const chunks = events.flatMap((e) =>
      e.payload?.$case === "artifactUpdate" ? [e.payload.value.artifact!.parts[0].content] : [],
    );
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => (c?.$case === "text" ? c.value : "")).join("")).toBe("Guten Tag, wie geht es?");
    const last = events.at(-1)!.payload;
    expect(last?.$case === "statusUpdate" && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("tasks/cancel cancels the running task's run; a task answered at once can be fetched while it runs", async () => {
    model.script({ kind: "reply", text: "slow", delayMs: 60_000 });
    const client = await a2aClient(key);
    const started = (await client.sendMessage(send("take your time", "", true))) as Task;
    expect(started.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect((await client.getTask({ tenant: "", id: started.id })).status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const cancelled = await within(
      30_000,
      "the cancel",
      client.cancelTask({ tenant: "", id: started.id, metadata: undefined }),
    );
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(client.cancelTask({ tenant: "", id: started.id, metadata: undefined })).rejects.toThrow(
      /already ended/,
    );
  });

  it("refuses a key of another project, a missing key, and answers no task it does not have", async () => {
    const other = await app.newProject();
    const res = await fetch(base, {
      method: "POST",
      headers: { Authorization: `Bearer ${other.key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }),
    });
    expect(res.status).toBe(404);
    const anonymous = await fetch(`${base}/.well-known/agent-card.json`);
    expect(anonymous.status).toBe(401);
    const client = await a2aClient(key);
    await expect(client.getTask({ tenant: "", id: "0190b2f0-0000-7000-8000-000000000000" })).rejects.toThrow(/No task/);
  });

  it("an agent that is not exposed has no card", async () => {
    const res = await fetch(`${live.origin}/services/a2a/v0/${projectId}/greeter@staging/.well-known/agent-card.json`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe("agent_not_exposed");
  });
});

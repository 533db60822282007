import { Role, TaskState, type Message, type Task, type TaskPushNotificationConfig } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from "@a2a-js/sdk/client";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { a2aPushWorker, startPushWorker } from "@/server/a2a";
import { loadConfig } from "@/server/core/config";
import { a2aPushConfigs } from "@/server/db/schema";
import { parseAllowlist } from "@/server/egress";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { verifyServiceSignature } from "../helpers/webhook-verifier";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let receiver: WebhookReceiver;
let key: string;
let projectId: string;

const withKey =
  (token: string): typeof fetch =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("Authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };

const endpoint = (project: string) => `${live.origin}/services/a2a/v0/${project}/greeter@production`;

/** The SDK's client from the agent card, speaking protocol 1.0, or 0.3 (`message/send`, `tasks/pushNotificationConfig/set`). */
async function a2aClient(token: string, project: string, legacy: boolean): Promise<Client> {
  const fetchImpl = withKey(token);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  const card = await new DefaultAgentCardResolver({ fetchImpl }).resolve(`${endpoint(project)}/`);
  card.supportedInterfaces = card.supportedInterfaces.filter((i) => i.protocolVersion === (legacy ? "0.3" : "1.0"));
  return factory.createFromAgentCard(card);
}

const userText = (text: string): Message => ({
  messageId: crypto.randomUUID(),
  contextId: "",
  taskId: "",
  role: Role.ROLE_USER,
  parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const pushConfig = (fields: Partial<TaskPushNotificationConfig>): TaskPushNotificationConfig => ({
  tenant: "",
  id: "",
  taskId: "",
  url: receiver.url("/push"),
  token: "",
  authentication: undefined,
  ...fields,
});

const send = (text: string, push?: TaskPushNotificationConfig) => ({
  tenant: "",
  message: userText(text),
  configuration: { acceptedOutputModes: ["text/plain"], taskPushNotificationConfig: push, returnImmediately: false },
  metadata: undefined,
});

/** A greeter agent deployed to production and exposed over A2A in the key's project. */
async function exposeGreeter(projectKey: string): Promise<void> {
  const created = await app.call("POST", "/api/workflows/", {
    key: projectKey,
    body: {
      workflow: {
        slug: "greeter",
        name: "Greeter",
        data: {
          parameters: {
            agent: { instructions: { agents_md: "Greet." }, llm: { model: "openai/gpt-5-mini" }, tools: [] },
          },
        },
      },
    },
  });
  expect(created.status).toBe(200);
  const deployed = await app.call("POST", "/api/workflows/revisions/deploy", {
    key: projectKey,
    body: { workflow_revision_ref: { id: created.body.workflow_revision.id }, environment_ref: { slug: "production" } },
  });
  expect(deployed.status).toBe(200);
  const exposed = await app.call("PUT", "/api/exposure", {
    key: projectKey,
    body: { exposures: [{ kind: "agent", slug: "greeter", environment: "production" }] },
  });
  expect(exposed.status).toBe(200);
}

/** Drains the push worker (queueing, then one delivery batch) until `done` holds. */
async function drainUntil(done: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`pushes: condition not met (${receiver.requests.length} requests)`);
    if ((await a2aPushWorker.drain(app.context, 50)) === 0) await new Promise((r) => setTimeout(r, 15));
  }
}

const TOKEN = "push-token-0123456789-abcdef";

beforeAll(async () => {
  model = await startScriptedModelServer();
  receiver = await startWebhookReceiver();
  const allowlist = parseAllowlist("localhost");
  if ("error" in allowlist) throw new Error(allowlist.error);
  app = await createTestApp({
    providerEnv: { openai: { key: "sk-a2a", baseUrl: model.baseUrl } },
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
    egressAllowlist: allowlist.entries,
    egressCa: [receiver.certificate.cert],
    webhookRetryScheduleMs: [0, 40, 80],
    webhookTimeoutMs: 2_000,
  });
  live = await serveOverHttp(app);
  ({ key, projectId } = await app.newProject());
  await exposeGreeter(key);
});
afterAll(async () => {
  await live?.close();
  await app?.close();
  await model?.close();
  await receiver?.close();
});
beforeEach(async () => {
  // An earlier test's configs on tasks that ended are pushed now, so each test sees only its own.
  while ((await a2aPushWorker.drain(app.context, 100)) > 0);
  receiver.requests.length = 0;
  receiver.succeeded.length = 0;
  receiver.reply = () => ({ status: 200, body: "ok" });
});

describe("A2A push notifications, through @a2a-js/sdk's client", () => {
  it("the card says push notifications are served", async () => {
    const res = await fetch(`${endpoint(projectId)}/.well-known/agent-card.json`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect((await res.json()).capabilities).toMatchObject({ pushNotifications: true });
  });

  it("set, get, list and delete a task's configs (0.3 and 1.0): the token and credentials in full only in set's answer", async () => {
    for (const legacy of [true, false]) {
      model.script({ kind: "reply", text: "Hallo!" });
      const client = await a2aClient(key, projectId, legacy);
      const task = (await client.sendMessage(send("hi"))) as Task;

      // No token given: one is generated and shown once.
      const generated = await client.createTaskPushNotificationConfig(
        pushConfig({
          taskId: task.id,
          id: "first",
          authentication: { scheme: "Bearer", credentials: "cred-abc-1234" },
        }),
      );
      expect(generated).toMatchObject({ id: "first", taskId: task.id, url: receiver.url("/push") });
      expect(generated.token).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(generated.authentication?.credentials).toBe("cred-abc-1234");
      const given = await client.createTaskPushNotificationConfig(pushConfig({ taskId: task.id, token: TOKEN }));
      expect(given.id).not.toBe("");
      expect(given.token).toBe(TOKEN);

      const read = await client.getTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "first" });
      expect(read).toMatchObject({ id: "first", url: receiver.url("/push"), token: `…${generated.token.slice(-4)}` });
      expect(read.authentication).toMatchObject({ scheme: "Bearer", credentials: "…1234" });
      const listed = await client.listTaskPushNotificationConfig({
        tenant: "",
        taskId: task.id,
        pageSize: 0,
        pageToken: "",
      });
      expect(listed.configs.map((c) => c.id)).toEqual(["first", given.id]);
      expect(JSON.stringify(listed)).not.toContain(generated.token);
      expect(JSON.stringify(listed)).not.toContain(TOKEN);

      await client.deleteTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "first" });
      await expect(client.getTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "first" })).rejects.toThrow(
        /no push notification config "first"/,
      );
      const left = await client.listTaskPushNotificationConfig({
        tenant: "",
        taskId: task.id,
        pageSize: 0,
        pageToken: "",
      });
      expect(left.configs.map((c) => c.id)).toEqual([given.id]);
      // The sealed secrets are not stored plain.
      const rows = await app.context.db.select().from(a2aPushConfigs).where(eq(a2aPushConfigs.taskId, task.id));
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(TOKEN);
    }
  });

  it("message/send with a push config: the task's final state reaches a real HTTPS receiver, signed with the token", async () => {
    model.script({ kind: "reply", text: "Guten Tag!" });
    const client = await a2aClient(key, projectId, true);
    const task = (await client.sendMessage(
      send("hi", pushConfig({ token: TOKEN, authentication: { scheme: "Bearer", credentials: "receiver-cred-1" } })),
    )) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await drainUntil(() => receiver.succeeded.length === 1);

    const [request] = receiver.requests;
    expect(request.path).toBe("/push");
    verifyServiceSignature(TOKEN, request.rawBody, request.headers["x-service-signature"] as string);
    expect(() =>
      verifyServiceSignature(
        "wrong-token-0123456789",
        request.rawBody,
        request.headers["x-service-signature"] as string,
      ),
    ).toThrow("no matching signature");
    expect(request.headers).toMatchObject({
      "content-type": "application/json",
      "x-service-event-type": "a2a.tasks.completed",
      "x-service-event-id": task.id,
      "x-a2a-notification-token": TOKEN,
      authorization: "Bearer receiver-cred-1",
    });
    // Protocol 0.3's task, as the SDK's own push serializer writes it.
    const pushed = JSON.parse(request.rawBody);
    expect(pushed).toMatchObject({ kind: "task", id: task.id, status: { state: "completed" } });
    expect(JSON.stringify(pushed.artifacts)).toContain("Guten Tag!");
    // Pushed once: a further pass sends nothing.
    expect(await a2aPushWorker.drain(app.context, 50)).toBe(0);
    expect(receiver.requests).toHaveLength(1);
  });

  it("message/stream with a push config: the config is stored by the stream's end and the final state is pushed", async () => {
    model.script({ kind: "reply", text: "Hej!" });
    const client = await a2aClient(key, projectId, true);
    let taskId = "";
    for await (const update of client.sendMessageStream(send("hi", pushConfig({ token: TOKEN, id: "streamed" })))) {
      if (update.payload?.$case === "task") taskId = update.payload.value.id;
    }
    const stored = await client.getTaskPushNotificationConfig({ tenant: "", taskId, id: "streamed" });
    expect(stored.token).toBe(`…${TOKEN.slice(-4)}`);
    await drainUntil(() => receiver.succeeded.length === 1);
    const [request] = receiver.requests;
    expect(JSON.parse(request.rawBody)).toMatchObject({ id: taskId, status: { state: "completed" } });
    verifyServiceSignature(TOKEN, request.rawBody, request.headers["x-service-signature"] as string);
  });

  it("a config set on a running task over 1.0 pushes its settled state in 1.0's shape", async () => {
    model.script({ kind: "reply", text: "Servus!", delayMs: 300 });
    const client = await a2aClient(key, projectId, false);
    const started = (await client.sendMessage({
      ...send("hi"),
      configuration: { ...send("hi").configuration, returnImmediately: true },
    })) as Task;
    expect(started.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    await client.createTaskPushNotificationConfig(pushConfig({ taskId: started.id, token: TOKEN, id: "late" }));
    await drainUntil(() => receiver.succeeded.length === 1);
    const [request] = receiver.requests;
    expect(request.headers["content-type"]).toBe("application/a2a+json");
    expect(JSON.parse(request.rawBody)).toMatchObject({
      task: { id: started.id, status: { state: "TASK_STATE_COMPLETED" } },
    });
    verifyServiceSignature(TOKEN, request.rawBody, request.headers["x-service-signature"] as string);
  });

  it("a receiver failing first gets the push on retry, from a worker started after the first one stopped", async () => {
    receiver.reply = (_r, index) => (index === 0 ? { status: 503, body: "busy" } : { status: 200, body: "ok" });
    const first = startPushWorker(app.context, { idleMs: 50 });
    await first.listening;
    model.script({ kind: "reply", text: "Moin!" });
    const client = await a2aClient(key, projectId, true);
    await client.sendMessage(send("hi", pushConfig({ token: TOKEN })));
    await receiver.when(() => receiver.requests.length >= 1);
    await first.stop();
    expect(receiver.succeeded).toHaveLength(0);

    // A new worker (a restart) finds the push in its table, due per the retry schedule.
    const second = startPushWorker(app.context, { idleMs: 50 });
    try {
      await receiver.when(() => receiver.succeeded.length === 1);
    } finally {
      await second.stop();
    }
    const [failed, retried] = receiver.requests;
    expect(retried.headers["x-service-delivery-id"]).toBe(failed.headers["x-service-delivery-id"]);
    expect(retried.rawBody).toBe(failed.rawBody);
    verifyServiceSignature(TOKEN, retried.rawBody, retried.headers["x-service-signature"] as string);
  });

  it("refuses a URL that is not https, on set and on message/send (which then starts no task)", async () => {
    model.script({ kind: "reply", text: "Hallo!" });
    const client = await a2aClient(key, projectId, true);
    const task = (await client.sendMessage(send("hi"))) as Task;
    const plain = `http://localhost:${receiver.port}/push`;
    await expect(
      client.createTaskPushNotificationConfig(pushConfig({ taskId: task.id, url: plain, token: TOKEN })),
    ).rejects.toThrow(/URL must use https/);
    const runsBefore = (await app.call("GET", "/services/agent/v0/runs?origin=a2a", { key })).body.count;
    await expect(client.sendMessage(send("hi", pushConfig({ url: plain, token: TOKEN })))).rejects.toThrow(
      /URL must use https/,
    );
    // A config on message/send brings its own token: the answer is the task, it could not show one.
    await expect(client.sendMessage(send("hi", pushConfig({})))).rejects.toThrow(/token signs every push/);
    expect((await app.call("GET", "/services/agent/v0/runs?origin=a2a", { key })).body.count).toBe(runsBefore);
    const list = await client.listTaskPushNotificationConfig({
      tenant: "",
      taskId: task.id,
      pageSize: 0,
      pageToken: "",
    });
    expect(list.configs).toEqual([]);
  });

  it("another project's key cannot read, list or delete a config", async () => {
    model.script({ kind: "reply", text: "Hallo!" });
    const client = await a2aClient(key, projectId, true);
    const task = (await client.sendMessage(send("hi"))) as Task;
    await client.createTaskPushNotificationConfig(pushConfig({ taskId: task.id, token: TOKEN, id: "mine" }));

    const other = await app.newProject();
    await exposeGreeter(other.key);
    const theirs = await a2aClient(other.key, other.projectId, true);
    await expect(theirs.getTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "mine" })).rejects.toThrow(
      /No task/,
    );
    await expect(
      theirs.listTaskPushNotificationConfig({ tenant: "", taskId: task.id, pageSize: 0, pageToken: "" }),
    ).rejects.toThrow(/No task/);
    await expect(theirs.deleteTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "mine" })).rejects.toThrow(
      /No task/,
    );
    // Our path with their key is not theirs to call at all.
    const res = await fetch(endpoint(projectId), {
      method: "POST",
      headers: { Authorization: `Bearer ${other.key}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tasks/pushNotificationConfig/get",
        params: { id: task.id, pushNotificationConfigId: "mine" },
      }),
    });
    expect(res.status).toBe(404);
    const mine = await client.getTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: "mine" });
    expect(mine.token).toBe(`…${TOKEN.slice(-4)}`);
  });
});

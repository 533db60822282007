import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Role, TaskState, type Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runSweepWorker } from "@/server/agent-runs";
import { tables } from "@/server/db";
import { runsRecorded } from "../helpers/after-runs";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";

// Another process on the same database needs real PostgreSQL (PGlite lives inside one process).
const pg = !!process.env.DATABASE_URL;

describe.skipIf(!pg)("an A2A task whose instance is killed with SIGKILL is taken over by another", () => {
  let t: TestApp;
  let live: RunningServer;
  let model: ScriptedModelServer;
  let child: ChildProcess | undefined;
  let key: string;
  let projectId: string;
  const secretKey = randomBytes(32);
  const LEASE_MS = 1_000;

  beforeAll(async () => {
    model = await startScriptedModelServer();
    t = await createTestApp({ secretKey, providerEnv: { openai: { key: "sk-a2a-kill", baseUrl: model.baseUrl } } });
    live = await serveOverHttp(t);
    ({ key, projectId } = await t.newProject());
    const created = await t.call("POST", "/api/workflows/", {
      key,
      body: {
        workflow: {
          slug: "worker",
          name: "Worker",
          data: { parameters: { agent: { llm: { model: "openai/gpt-5-mini" }, tools: [] } } },
        },
      },
    });
    const deployed = await t.call("POST", "/api/workflows/revisions/deploy", {
      key,
      body: {
        workflow_revision_ref: { id: created.body.workflow_revision.id },
        environment_ref: { slug: "production" },
      },
    });
    expect(deployed.status).toBe(200);
    const exposed = await t.call("PUT", "/api/exposure", {
      key,
      body: { exposures: [{ kind: "agent", slug: "worker", environment: "production" }] },
    });
    expect(exposed.status).toBe(200);
  });
  afterEach(() => {
    if (child?.exitCode === null) child.kill("SIGKILL");
  });
  afterAll(async () => {
    await live.close();
    await t.close();
    await model.close();
  });

  async function startInstance(): Promise<string> {
    child = spawn(process.execPath, ["--import", "tsx", "tests/agent-runs/fixtures/app-process.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: t.database.url,
        APP_SECRET_KEY: secretKey.toString("base64"),
        AGENT_RUN_LEASE_MS: String(LEASE_MS),
        LOG_LEVEL: "silent",
        NODE_ENV: "test",
        OPENAI_API_KEY: "sk-a2a-kill",
        OPENAI_BASE_URL: model.baseUrl,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    return new Promise<string>((resolve, reject) => {
      child!.stdout!.on("data", (chunk: Buffer) => {
        const port = /LISTENING (\d+)/.exec(chunk.toString())?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      child!.on("exit", (code) => reject(new Error(`app process exited with ${code}`)));
    });
  }

  const client = (origin: string) => {
    const fetchImpl: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("Authorization", `Bearer ${key}`);
      return fetch(input, { ...init, headers });
    };
    return new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }),
    ).createFromUrl(`${origin}/services/a2a/v0/${projectId}/worker@production/`);
  };

  it("a task started on one instance, killed mid-answer, is completed by another and read from it", async () => {
    const origin = await startInstance();
    model.script({ kind: "hang" });
    const sent = model.requests.length;
    const started = (await (
      await within(60_000, "the card from the first instance", client(origin))
    ).sendMessage({
      tenant: "",
      message: {
        messageId: "m-1",
        contextId: "",
        taskId: "",
        role: Role.ROLE_USER,
        parts: [{ content: { $case: "text", value: "count" }, metadata: undefined, filename: "", mediaType: "" }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true },
      metadata: undefined,
    })) as Task;
    expect(started.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    await within(20_000, "the first instance's model request", model.requestsReceived(sent + 1));
    model.script({ kind: "reply", text: "Taken over: 1, 2, 3." });

    child!.kill("SIGKILL");
    await new Promise((resolve) => child!.once("exit", resolve));
    await within(
      20_000,
      "the killed instance's statement on the run's row to end",
      t.context.db
        .select({ id: tables.agentRuns.id })
        .from(tables.agentRuns)
        .where(eq(tables.agentRuns.id, started.id))
        .for("update")
        .then(() => undefined),
    );
    t.advanceClock(LEASE_MS);
    expect(await runSweepWorker.drain(t.context, 10)).toBeGreaterThan(0);
    await runsRecorded(t.context);

    const task = await (await client(live.origin)).getTask({ tenant: "", id: started.id });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.contextId).toBe(started.contextId);
    const reply = task.artifacts[0].parts[0].content;
    expect(reply?.$case === "text" && reply.value).toBe("Taken over: 1, 2, 3.");
  });
});

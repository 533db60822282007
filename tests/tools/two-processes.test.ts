import { PROJECT_SETUPS } from "@/server/boot";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/server/auth";
import type { DatabaseHandle } from "@/server/db";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { openTestDatabase } from "../helpers/test-database";

// Two app processes on one database need real PostgreSQL (PGlite lives inside one process).
const pg = !!process.env.DATABASE_URL;

describe.skipIf(!pg)("a session workspace across two app processes on PostgreSQL", () => {
  let database: DatabaseHandle;
  let model: ScriptedModelServer;
  let key: string;
  const children: ChildProcess[] = [];
  const secretKey = randomBytes(32).toString("base64");

  beforeAll(async () => {
    database = await openTestDatabase();
    model = await startScriptedModelServer();
    ({ secret: key } = await createAccount(database.db, PROJECT_SETUPS, {
      email: `ws-${Date.now()}@test.local`,
      projectName: "ws",
    }));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill();
    await Promise.all(
      children.map((child) => (child.exitCode === null ? new Promise((r) => child.once("exit", r)) : undefined)),
    );
    await model.close();
    await database.close();
  });

  function startServer(): Promise<string> {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/tools/fixtures/serve.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        LOG_LEVEL: "silent",
        NODE_ENV: "test",
        APP_SECRET_KEY: secretKey,
        OPENAI_API_KEY: "sk-two",
        OPENAI_BASE_URL: model.baseUrl,
        WORKERS: "off",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const m = /LISTENING (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on("exit", (code) => reject(new Error(`server exited with ${code} before listening`)));
    });
  }

  const turn = async (origin: string, text: string) => {
    const response = await fetch(`${origin}/services/agent/v0/invoke`, {
      method: "POST",
      headers: { authorization: `ApiKey ${key}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        session_id: "shared-session",
        data: {
          inputs: { messages: [{ role: "user", content: text }] },
          parameters: {
            agent: {
              llm: { provider: "openai", model: "gpt-5-mini" },
              tools: [{ type: "builtin", name: "bash" }],
              runner: { permissions: { default: "allow" } },
            },
          },
        },
      }),
    });
    expect(response.status).toBe(200);
    return (await response.json()).data.outputs.messages.filter((m: any) => m.role === "tool" && m.content !== "");
  };

  it("a file written through one process is read through the other", async () => {
    const [first, second] = await Promise.all([startServer(), startServer()]);
    model.script(
      {
        kind: "reply",
        text: "Writing.",
        toolCalls: [{ id: "c_1", name: "bash", input: { command: "echo 'from process one' > shared.txt" } }],
      },
      { kind: "reply", text: "ok" },
    );
    await turn(first, "write it");
    model.script(
      {
        kind: "reply",
        text: "Reading.",
        toolCalls: [{ id: "c_2", name: "bash", input: { command: "cat shared.txt" } }],
      },
      { kind: "reply", text: "ok" },
    );
    const results = await turn(second, "read it");
    expect(results).toEqual([
      expect.objectContaining({ tool_call_id: "c_2", content: "from process one\n", is_error: false }),
    ]);
  }, 60_000);
});

import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiDoors } from "@/server/boot";
import { onRunFinished, type RunRecord } from "@/server/agent-runs";
import type { NativeEvent } from "@/server/streams";
import { anotherInstance } from "../helpers/app-instance";
import { serveOnLoopback } from "../helpers/http-server";
import { runsRecorded } from "../helpers/after-runs";
import { invokeOver } from "../helpers/invoke-client";
import { createRunFixture, type RunFixture } from "../helpers/run-fixture";

const SECRET = "sk-code-secret-5d1f0a";
// The time limit a test runs into; the others keep the default, which a loaded host stays under.
const TIMEOUT_MS = 1_000;
let fixture: RunFixture;
let app: RunFixture["app"];
let live: RunFixture["live"];
let model: RunFixture["model"];
let key: string;
const records: RunRecord[] = [];

beforeAll(async () => {
  fixture = await createRunFixture({}, { providerKey: "sk-code" });
  ({ app, live, model, key } = fixture);
  const stored = await app.call("POST", "/api/vault/v1/secrets/", {
    key,
    body: { header: { name: "work" }, secret: { kind: "secret", data: { value: SECRET } } },
  });
  expect(stored.status).toBe(201);
  // A mistral key: the runs here use openai through the operator's (scripted) key.
  onRunFinished((record) => void records.push(record));
});
afterAll(() => fixture.close());

const ADD = {
  type: "code",
  name: "add",
  description: "Adds two numbers",
  runtime: "python",
  script:
    'import os\n\ndef main(a, b):\n    if a < 0:\n        raise ValueError("negative " + os.environ["WORK"])\n    return {"sum": a + b, "has_key": os.environ.get("WORK") == "' +
    SECRET +
    '", "echo": os.environ.get("WORK")}\n',
  input_schema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  secrets: ["work"],
};
const agent = (tools: unknown[]) => ({
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools,
  runner: { permissions: { default: "allow" } },
});
const invoke = (tools: unknown[], session = "code", origin = live.origin) =>
  invokeOver(origin, key, "sse", "native", {
    session_id: session,
    data: { inputs: { messages: [{ role: "user", content: "add" }] }, parameters: { agent: agent(tools) } },
  });
const results = (events: NativeEvent[]) =>
  Object.fromEntries(
    events.filter((e) => e.type === "tool_result").map((e) => [e.id, { output: e.output, isError: e.isError }]),
  );

it("a python code tool runs main(**inputs) inside the sandbox with its secrets as environment, and the secret never reaches the wire", async () => {
  model.script(
    {
      kind: "reply",
      text: "Adding.",
      toolCalls: [
        { id: "c_ok", name: "add", input: { a: 2, b: 3 } },
        { id: "c_bad", name: "add", input: { a: "two", b: 3 } },
        { id: "c_raise", name: "add", input: { a: -1, b: 3 } },
        { id: "c_env", name: "bash", input: { command: 'echo "[$WORK]"' } },
      ],
    },
    { kind: "reply", text: "Done." },
  );
  const o = await invoke([ADD, { type: "builtin", name: "bash" }]);
  expect(o.status).toBe(200);
  const out = results(o.events!);
  expect(out.c_ok).toEqual({ output: { sum: 5, has_key: true, echo: "[secret]" }, isError: false });
  expect(out.c_bad.isError).toBe(true);
  expect(String(out.c_bad.output)).toContain("input_schema");
  expect(out.c_raise.isError).toBe(true);
  expect(String(out.c_raise.output)).toContain("ValueError: negative [secret]");
  // Set for the code tool's call only.
  expect(out.c_env).toEqual({ output: "[]\n", isError: false });
  expect(JSON.stringify(o.events)).not.toContain(SECRET);
  expect(JSON.stringify(model.requests)).not.toContain(SECRET);
  // The run's record reaches its listeners a moment after the answer: awaited.
  await runsRecorded(app.context);
  expect(records.map((r) => r.traceId)).toContain(o.headers.get("x-svc-trace-id"));
  expect(JSON.stringify(records)).not.toContain(SECRET);
}, 60_000);

it("an endless loop stops at the time limit, an unbounded allocation at the interpreter's heap ceiling", async () => {
  const hog = {
    type: "code",
    name: "hog",
    runtime: "python",
    script:
      'def main(what):\n    if what == "loop":\n        while True:\n            pass\n    kept = []\n    while True:\n        kept.append(bytearray(1 << 20))\n',
    input_schema: { type: "object", properties: { what: { enum: ["loop", "allocate"] } }, required: ["what"] },
  };
  model.script(
    { kind: "reply", text: "Hogging.", toolCalls: [{ id: "c_allocate", name: "hog", input: { what: "allocate" } }] },
    { kind: "reply", text: "Done." },
  );
  const allocated = await invoke([hog]);
  expect(allocated.status).toBe(200);
  const out = results(allocated.events!);
  expect(out.c_allocate.isError).toBe(true);
  expect(String(out.c_allocate.output)).toContain("stopped: the script went over the python interpreter's 512 MB heap");
  expect(String(out.c_allocate.output)).toContain("MemoryError");

  const short = await anotherInstance(app, {
    sandbox: { ...app.context.config.sandbox, commandTimeoutMs: TIMEOUT_MS },
  });
  const server = await serveOnLoopback(createApiDoors(short.context).web);
  try {
    model.script(
      { kind: "reply", text: "Hogging.", toolCalls: [{ id: "c_loop", name: "hog", input: { what: "loop" } }] },
      { kind: "reply", text: "Done." },
    );
    const looped = await invoke([hog], "code", server.origin);
    expect(looped.status).toBe(200);
    const loop = results(looped.events!).c_loop;
    expect(loop.isError).toBe(true);
    expect(String(loop.output)).toContain(`command stopped after ${TIMEOUT_MS} ms (SANDBOX_COMMAND_TIMEOUT_MS)`);
  } finally {
    await server.close();
    await short.close();
  }
}, 90_000);

it("refused before the run: a secret the vault does not hold", async () => {
  const missing = await invoke([{ ...ADD, secrets: ["nope"] }]);
  expect(missing.status).toBe(400);
  expect(missing.batch).toMatchObject({ code: "secret_not_found" });
  expect(missing.batch.detail).toContain('"nope"');
});

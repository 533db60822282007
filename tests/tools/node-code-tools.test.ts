import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { onRunFinished, type RunRecord } from "@/server/agent-runs";
import type { NativeEvent } from "@/server/streams";
import { runsRecorded } from "../helpers/after-runs";
import { invokeOver } from "../helpers/invoke-client";
import { createRunFixture, type RunFixture } from "../helpers/run-fixture";

const SECRET = "sk-node-secret-93b7e2";
const TIMEOUT_MS = 3_000;
const MEMORY_MB = 64;
let fixture: RunFixture;
let app: RunFixture["app"];
let live: RunFixture["live"];
let model: RunFixture["model"];
let key: string;
const records: RunRecord[] = [];

beforeAll(async () => {
  fixture = await createRunFixture(
    { sandbox: { ...loadConfig({}).sandbox, commandTimeoutMs: TIMEOUT_MS, codeToolMemoryMb: MEMORY_MB } },
    { providerKey: "sk-node" },
  );
  ({ app, live, model, key } = fixture);
  const stored = await app.call("POST", "/api/vault/v1/secrets/", {
    key,
    body: { header: { name: "work" }, secret: { kind: "secret", data: { value: SECRET } } },
  });
  expect(stored.status).toBe(201);
  onRunFinished((record) => void records.push(record));
});
afterAll(() => fixture.close());

const ADD = {
  type: "code",
  name: "add",
  description: "Adds two numbers",
  runtime: "node",
  script: `function main({ a, b }) {
  console.log("adding", a, b);
  if (a < 0) throw new RangeError("negative " + process.env.WORK);
  return { sum: a + b, has_key: process.env.WORK === ${JSON.stringify(SECRET)}, echo: process.env.WORK, frozen: Object.isFrozen(process.env) };
}`,
  input_schema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  secrets: ["work"],
};
const DOUBLE = {
  type: "code",
  name: "double",
  runtime: "node",
  script: `async function main({ n }) {
  const doubled = await new Promise((resolve) => resolve(n * 2));
  return { doubled: await Promise.resolve(doubled), env: Object.keys(process.env) };
}`,
  input_schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
};
/** Each way out of the VM a Node script would try; `globals` lists what the VM does hold. */
const ESCAPE = {
  type: "code",
  name: "escape",
  runtime: "node",
  script: `async function main({ attempt }) {
  if (attempt === "require") return require("fs").readFileSync("/etc/passwd", "utf8");
  if (attempt === "process") return process.binding("fs");
  if (attempt === "fetch") return await globalThis.fetch("http://127.0.0.1:1/");
  if (attempt === "import") return await import("node:child_process");
  if (attempt === "constructor") return (function () {}).constructor("return typeof require + ' ' + typeof fetch")();
  return { process: Object.keys(process), absent: ["require", "module", "fetch", "setTimeout", "XMLHttpRequest", "WebAssembly", "Deno", "Bun"].filter((name) => typeof globalThis[name] === "undefined") };
}`,
  input_schema: { type: "object", properties: { attempt: { type: "string" } }, required: ["attempt"] },
};
const LIMITS = {
  type: "code",
  name: "hog",
  runtime: "node",
  script: `function main({ what }) {
  if (what === "loop") { for (;;) {} }
  const kept = [];
  for (;;) kept.push(new Array(100000).fill(kept.length));
}`,
  input_schema: { type: "object", properties: { what: { enum: ["loop", "allocate"] } }, required: ["what"] },
};

const agent = (tools: unknown[]) => ({
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools,
  runner: { permissions: { default: "allow" } },
});
const invoke = (tools: unknown[], session = "node-code") =>
  invokeOver(live.origin, key, "sse", "native", {
    session_id: session,
    data: { inputs: { messages: [{ role: "user", content: "go" }] }, parameters: { agent: agent(tools) } },
  });
const results = (events: NativeEvent[]) =>
  Object.fromEntries(
    events.filter((e) => e.type === "tool_result").map((e) => [e.id, { output: e.output, isError: e.isError }]),
  );

it("a node code tool runs main(inputs) in QuickJS, sync or async, its secrets a frozen process.env of that call only, never on the wire", async () => {
  model.script(
    {
      kind: "reply",
      text: "Working.",
      toolCalls: [
        { id: "c_ok", name: "add", input: { a: 2, b: 3 } },
        { id: "c_async", name: "double", input: { n: 21 } },
        { id: "c_bad", name: "add", input: { a: "two", b: 3 } },
        { id: "c_raise", name: "add", input: { a: -1, b: 3 } },
        { id: "c_env", name: "bash", input: { command: 'echo "[$WORK]"' } },
      ],
    },
    { kind: "reply", text: "Done." },
  );
  const o = await invoke([ADD, DOUBLE, { type: "builtin", name: "bash" }]);
  expect(o.status).toBe(200);
  const out = results(o.events!);
  expect(out.c_ok).toEqual({ output: { sum: 5, has_key: true, echo: "[secret]", frozen: true }, isError: false });
  // The other tool's call sees no secret.
  expect(out.c_async).toEqual({ output: { doubled: 42, env: [] }, isError: false });
  expect(out.c_bad.isError).toBe(true);
  expect(String(out.c_bad.output)).toContain("input_schema");
  expect(String(out.c_bad.output)).toContain("/a must be number");
  expect(out.c_raise.isError).toBe(true);
  expect(String(out.c_raise.output)).toMatch(/^Error: RangeError: negative \[secret\]\n\s+at main \(tool\.js:3/);
  // console output explains a failure; a success returns main's value alone.
  expect(String(out.c_raise.output)).toContain("console output:\nadding -1 3");
  expect(out.c_env).toEqual({ output: "[]\n", isError: false });
  expect(JSON.stringify(o.events)).not.toContain(SECRET);
  expect(JSON.stringify(model.requests)).not.toContain(SECRET);
  // The run's record reaches its listeners a moment after the answer: awaited.
  await runsRecorded(app.context);
  expect(records.map((r) => r.traceId)).toContain(o.headers.get("x-svc-trace-id"));
  expect(JSON.stringify(records)).not.toContain(SECRET);
}, 60_000);

it("escape attempts fail with a clear error: require, process, fetch, import(), the Function constructor", async () => {
  const attempts = ["require", "process", "fetch", "import", "constructor", "globals"];
  model.script(
    {
      kind: "reply",
      text: "Trying.",
      toolCalls: attempts.map((attempt) => ({ id: `c_${attempt}`, name: "escape", input: { attempt } })),
    },
    { kind: "reply", text: "Done." },
  );
  const o = await invoke([ESCAPE]);
  expect(o.status).toBe(200);
  const out = results(o.events!);
  expect(out.c_require.isError).toBe(true);
  expect(String(out.c_require.output)).toMatch(/^Error: ReferenceError: 'require' is not defined/);
  expect(out.c_process.isError).toBe(true);
  expect(String(out.c_process.output)).toMatch(/^Error: TypeError: not a function/);
  expect(out.c_fetch.isError).toBe(true);
  expect(String(out.c_fetch.output)).toMatch(/^Error: TypeError: not a function/);
  expect(out.c_import.isError).toBe(true);
  expect(String(out.c_import.output)).toMatch(/^Error: ReferenceError: could not load module 'node:child_process'/);
  expect(out.c_constructor).toEqual({ output: "undefined undefined", isError: false });
  expect(out.c_globals).toEqual({
    output: {
      process: ["env"],
      absent: ["require", "module", "fetch", "setTimeout", "XMLHttpRequest", "WebAssembly", "Deno", "Bun"],
    },
    isError: false,
  });
}, 60_000);

it("an endless loop stops at the time limit and an unbounded allocation at the memory cap, without stalling the server's event loop", async () => {
  model.script(
    {
      kind: "reply",
      text: "Hogging.",
      toolCalls: [
        { id: "c_loop", name: "hog", input: { what: "loop" } },
        { id: "c_allocate", name: "hog", input: { what: "allocate" } },
      ],
    },
    { kind: "reply", text: "Done." },
  );
  const started = Date.now();
  // The server runs in this process: a script spinning on its event loop would stall this timer
  // for the whole time limit. In worker threads, it keeps ticking.
  let last = Date.now();
  let longestStall = 0;
  const ticker = setInterval(() => {
    longestStall = Math.max(longestStall, Date.now() - last);
    last = Date.now();
  }, 20);
  const o = await invoke([LIMITS]).finally(() => clearInterval(ticker));
  expect(longestStall).toBeLessThan(TIMEOUT_MS / 2);
  expect(o.status).toBe(200);
  const out = results(o.events!);
  expect(out.c_loop.isError).toBe(true);
  expect(String(out.c_loop.output)).toMatch(
    new RegExp(`^Error: stopped after ${TIMEOUT_MS} ms \\(SANDBOX_COMMAND_TIMEOUT_MS\\)\nInternalError: interrupted`),
  );
  expect(out.c_allocate.isError).toBe(true);
  expect(String(out.c_allocate.output)).toMatch(
    new RegExp(
      `^Error: stopped: the script went over its memory cap of ${MEMORY_MB} MB \\(CODE_TOOL_MEMORY_MB\\)\nInternalError: out of memory`,
    ),
  );
  expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 10_000);
}, 60_000);

it("refused before the run: an input_schema that does not compile, a python tool this memory cap cannot hold", async () => {
  const python = await invoke([
    { ...ADD, runtime: "python", script: "def main(a, b):\n    return a + b\n", secrets: [] },
  ]);
  expect(python.status).toBe(400);
  expect(python.batch).toMatchObject({ code: "unsupported_tool" });
  expect(python.batch.detail).toContain(`heap is fixed at 512 MB, above CODE_TOOL_MEMORY_MB (${MEMORY_MB})`);
  const schema = await invoke([{ ...ADD, input_schema: { type: "object", properties: { a: { type: "nonsense" } } } }]);
  expect(schema.status).toBe(400);
});

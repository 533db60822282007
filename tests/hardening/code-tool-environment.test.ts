import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import type { NativeEvent } from "@/server/streams";
import { invokeOver } from "../helpers/invoke-client";
import { createRunFixture, type RunFixture } from "../helpers/run-fixture";

// Item 8 of the hardening issue: a code tool's environment holds only what the tool was given
// (its secrets), nothing of the host (no `_` naming the host's install path, no PATH, no USER).
const SECRET = "sk-env-secret-7c2e91";
let fixture: RunFixture;
let app: RunFixture["app"];
let live: RunFixture["live"];
let model: RunFixture["model"];
let key: string;

beforeAll(async () => {
  fixture = await createRunFixture(
    { sandbox: { ...loadConfig({}).sandbox, commandTimeoutMs: 30_000 } },
    { providerKey: "sk-x" },
  );
  ({ app, live, model, key } = fixture);
  const stored = await app.call("POST", "/api/vault/v1/secrets/", {
    key,
    body: { header: { name: "work" }, secret: { kind: "secret", data: { value: SECRET } } },
  });
  expect(stored.status).toBe(201);
});
afterAll(() => fixture.close());

const tool = (runtime: "python" | "node") => ({
  type: "code",
  name: `env_${runtime}`,
  runtime,
  script:
    runtime === "python"
      ? "import os\n\ndef main():\n    return sorted(os.environ.keys())\n"
      : "function main() { return Object.keys(process.env).sort(); }",
  input_schema: { type: "object", properties: {} },
  secrets: ["work"],
});

it("python and node code tools see exactly their secrets as environment", async () => {
  model.script(
    {
      kind: "reply",
      text: "Env.",
      toolCalls: [
        { id: "c_py", name: "env_python", input: {} },
        { id: "c_node", name: "env_node", input: {} },
      ],
    },
    { kind: "reply", text: "Done." },
  );
  const o = await invokeOver(live.origin, key, "sse", "native", {
    session_id: "env",
    data: {
      inputs: { messages: [{ role: "user", content: "env" }] },
      parameters: {
        agent: {
          llm: { provider: "openai", model: "gpt-5-mini" },
          tools: [tool("python"), tool("node")],
          runner: { permissions: { default: "allow" } },
        },
      },
    },
  });
  expect(o.status).toBe(200);
  const out = Object.fromEntries(
    o.events!.filter((e: NativeEvent) => e.type === "tool_result").map((e) => [e.id, e.output]),
  );
  expect(out.c_node).toEqual(["WORK"]);
  expect(out.c_py).toEqual(["WORK"]);
}, 90_000);

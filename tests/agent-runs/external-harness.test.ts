import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig, type Config } from "@/server/core/config";
import { externalSessions } from "@/server/agent-runs";
import { DENIED_BY_USER } from "@/server/agent-runs/permissions";
import { loadWorkspace } from "@/server/sandbox";
import { invokeOver, nativeText, type FormatName, type Observed, type TransportName } from "../helpers/invoke-client";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startMcpTestServer } from "../helpers/mcp-test-server";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
} from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { runsRecorded } from "../helpers/after-runs";
import { within } from "../helpers/within";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;
let projectId: string;
let dataDir: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  dataDir = await mkdtemp(path.join(tmpdir(), "external-harness-"));
  const defaults = loadConfig({});
  app = await createTestApp({
    dataDir,
    externalHarness: { ...defaults.externalHarness, enabled: true },
    agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
    providerEnv: { anthropic: { key: "sk-ant-external-test", baseUrl: model.baseUrl } },
  });
  live = await serveOnLoopback(app.handle);
  ({ key, projectId } = await app.newProject());
});
afterAll(async () => {
  await externalSessions(app.context.config as Config).closeAll();
  await live.close();
  await app.close();
  await model.close();
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * How long a process closed in the background (an evicted one) may take to exit. Waits end as
 * soon as it has (about a second on a quiet machine); the margin is for a loaded CI host.
 */
const EXIT_WAIT_MS = 15_000;

// Every turn here starts or resumes a real Claude Code process (a Node program of its own), which a
// loaded two-core host can take many seconds to boot: each test gets two minutes instead of 30 s.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const DOUBLE = {
  type: "code",
  name: "double",
  description: "Doubles a number and counts its runs in runs.txt",
  input_schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  script:
    "def main(n):\n    with open('/workspace/runs.txt', 'a') as f:\n        f.write('run\\n')\n    return {'result': n * 2}\n",
};
const agent = (overrides: Record<string, unknown> = {}) => ({
  instructions: { agents_md: "You are the doubling agent." },
  llm: { model: "sonnet" },
  harness: { kind: "external_harness" },
  tools: [],
  ...overrides,
});
const body = (sessionId: string, messages: unknown[], template = agent()) => ({
  session_id: sessionId,
  data: { inputs: { messages }, parameters: { agent: template } },
});
const combos: Array<[TransportName, FormatName]> = (["batch", "sse", "ndjson"] as const).flatMap((t) =>
  (["native", "ui_sdk"] as const).map((f) => [t, f] as [TransportName, FormatName]),
);

/** The requests Claude Code sent the model while `run` ran. */
async function modelRequests(
  run: () => Promise<Observed>,
): Promise<{ observed: Observed; requests: RecordedRequest[] }> {
  const before = model.requests.length;
  const observed = await run();
  return { observed, requests: model.requests.slice(before) };
}
const sentText = (request: RecordedRequest) => JSON.stringify(request.body.messages);
const runsOf = async (sessionId: string) => {
  const entries = await loadWorkspace(app.context.db, projectId, sessionId, { maxBytes: 1e6, idleMs: 60_000 });
  const file = entries.find((e) => e.path === "/workspace/runs.txt");
  return file && file.kind === "file"
    ? Buffer.from(file.base64, "base64").toString().split("\n").filter(Boolean).length
    : 0;
};
function answerOf(o: Observed, format: FormatName, transport: TransportName): string {
  if (format === "native" && transport !== "batch") return nativeText(o.events!);
  if (format === "native")
    return o.batch.data.outputs.messages
      .filter((m: any) => m.role === "assistant")
      .map((m: any) => m.content)
      .join("");
  return (o.message!.parts as any[])
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("");
}

describe("external harness (Claude Code through the Agent SDK) against the scripted Anthropic server", () => {
  it.each(combos)("a plain answer over %s in %s", async (transport, format) => {
    model.script({ kind: "reply", text: "Hello from Claude Code." });
    const { observed, requests } = await modelRequests(() =>
      invokeOver(
        live.origin,
        key,
        transport,
        format,
        body(`plain-${transport}-${format}`, [{ role: "user", content: "say hello" }]),
      ),
    );
    expect(observed.status).toBe(200);
    expect(answerOf(observed, format, transport)).toBe("Hello from Claude Code.");
    // The credential, the model alias and the template's instructions reached the model call.
    expect(requests).toHaveLength(1);
    expect(requests[0].path).toBe("/v1/messages");
    expect(requests[0].headers["x-api-key"]).toBe("sk-ant-external-test");
    expect(sentText(requests[0])).toContain("say hello");
    expect(JSON.stringify(requests[0].body)).toContain("You are the doubling agent.");
    if (observed.events) expect(observed.events.at(-1)).toMatchObject({ type: "done", stopReason: "end_turn" });
  });

  it.each([["native"], ["ui_sdk"]] as const)(
    "serves the template's tools over agenta-tools: the model calls one and reads its result (%s)",
    async (format) => {
      const session = `tool-${format}`;
      model.script(
        {
          kind: "reply",
          text: "Let me double it.",
          toolCalls: [{ id: `toolu_${format}_1`, name: "mcp__agenta-tools__double", input: { n: 21 } }],
        },
        { kind: "reply", text: "It is 42." },
      );
      const template = agent({ tools: [{ ...DOUBLE, permission: "allow" }] });
      const { observed, requests } = await modelRequests(() =>
        invokeOver(live.origin, key, "sse", format, body(session, [{ role: "user", content: "double 21" }], template)),
      );
      expect(observed.status).toBe(200);
      expect(requests[0].body.tools.map((t: { name: string }) => t.name)).toContain("mcp__agenta-tools__double");
      const resultSent = requests[1].body.messages
        .at(-1)
        .content.find((b: { type: string }) => b.type === "tool_result");
      expect(resultSent).toMatchObject({ tool_use_id: `toolu_${format}_1` });
      expect(JSON.stringify(resultSent.content)).toContain('{\\"result\\":42}');
      if (format === "native") {
        expect(observed.events!.filter((e) => e.type === "tool_call").at(-1)).toEqual({
          type: "tool_call",
          id: `toolu_${format}_1`,
          name: "double",
          input: { n: 21 },
        });
        expect(observed.events!.filter((e) => e.type === "tool_result")).toEqual([
          { type: "tool_result", id: `toolu_${format}_1`, output: { result: 42 }, isError: false },
        ]);
        expect(nativeText(observed.events!)).toBe("Let me double it.It is 42.");
      } else {
        expect(observed.chunks).toContainEqual({
          type: "tool-output-available",
          toolCallId: `toolu_${format}_1`,
          output: { result: 42 },
        });
        expect(answerOf(observed, format, "sse")).toContain("It is 42.");
      }
      expect(await runsOf(session)).toBe(1);
    },
  );

  it.each([["native"], ["ui_sdk"]] as const)(
    "an ask tool pauses at Claude Code's permission gate; the approval resumes the parked process and the tool runs once (%s)",
    async (format) => {
      const session = `approve-${format}`;
      const call = { id: `toolu_${format}_ask`, name: "mcp__agenta-tools__double", input: { n: 5 } };
      const template = agent({ tools: [{ ...DOUBLE, permission: "ask" }] });
      model.script({ kind: "reply", text: "Doubling.", toolCalls: [call] }, { kind: "reply", text: "It is 10." });
      const first = await invokeOver(
        live.origin,
        key,
        "sse",
        format,
        body(session, [{ role: "user", content: "double 5" }], template),
      );
      expect(first.status).toBe(200);
      let approvalId: string;
      if (format === "native") {
        const request = first.events!.find((e) => e.type === "interaction_request") as any;
        expect(request).toMatchObject({
          kind: "user_approval",
          payload: { toolCallId: call.id, toolName: "double", input: { n: 5 } },
        });
        expect(first.events!.at(-1)).toMatchObject({ type: "done", stopReason: "paused" });
        approvalId = request.id;
      } else {
        const request = first.chunks!.find((c) => c.type === "tool-approval-request");
        expect(request).toMatchObject({ toolCallId: call.id });
        expect(first.chunks!.at(-1)).toMatchObject({ type: "finish", finishReason: "other" });
        approvalId = request.approvalId;
      }
      expect(await runsOf(session)).toBe(0);
      const requestsBefore = model.requests.length;

      const answer =
        format === "native"
          ? [
              { role: "user", content: "double 5" },
              {
                role: "assistant",
                content: [
                  { type: "text", text: "Doubling." },
                  { type: "tool_call", toolCallId: call.id, toolName: "double", input: call.input },
                ],
              },
              {
                role: "tool",
                content: [
                  {
                    type: "tool_result",
                    tool_call_id: call.id,
                    tool_name: "double",
                    approved: true,
                    interaction_token: approvalId,
                  },
                ],
              },
            ]
          : [
              { id: "u1", role: "user", parts: [{ type: "text", text: "double 5" }] },
              {
                id: "a1",
                role: "assistant",
                parts: [
                  { type: "text", text: "Doubling." },
                  {
                    type: "tool-double",
                    toolCallId: call.id,
                    state: "approval-responded",
                    input: call.input,
                    approval: { id: approvalId, approved: true },
                  },
                ],
              },
            ];
      const last = answer.at(-1) as any;
      const second = await invokeOver(live.origin, key, "sse", format, body(session, answer, template), {
        continues: format === "ui_sdk" ? last : undefined,
      });
      expect(second.status).toBe(200);
      expect(await runsOf(session)).toBe(1);
      // Warm: the same process went on from its gate, so the model got the tool result in Claude
      // Code's own transcript (no replayed history), in one request.
      const resumed = model.requests.slice(requestsBefore);
      expect(resumed).toHaveLength(1);
      expect(sentText(resumed[0])).not.toContain("<transcript>");
      expect(
        resumed[0].body.messages.at(-1).content.find((b: { type: string }) => b.type === "tool_result"),
      ).toMatchObject({ tool_use_id: call.id });
      if (format === "native") {
        expect(second.events!.filter((e) => e.type === "tool_result")).toEqual([
          { type: "tool_result", id: call.id, output: { result: 10 }, isError: false },
        ]);
        expect(nativeText(second.events!)).toBe("It is 10.");
      } else {
        expect(second.chunks).toContainEqual({
          type: "tool-output-available",
          toolCallId: call.id,
          output: { result: 10 },
        });
      }

      // The same approval sent again is spent: it asks again, nothing runs, the model is not called.
      const replayBefore = model.requests.length;
      const replay = await invokeOver(
        live.origin,
        key,
        "batch",
        "native",
        body(
          session,
          format === "native"
            ? answer
            : [
                { role: "user", content: "double 5" },
                {
                  role: "assistant",
                  content: [{ type: "tool_call", toolCallId: call.id, toolName: "double", input: call.input }],
                },
                {
                  role: "tool",
                  content: [
                    {
                      type: "tool_result",
                      tool_call_id: call.id,
                      tool_name: "double",
                      approved: true,
                      interaction_token: approvalId,
                    },
                  ],
                },
              ],
          template,
        ),
      );
      expect(replay.batch.data.outputs.stop_reason).toBe("paused");
      expect(replay.batch.data.outputs.pending_interaction.id).not.toBe(approvalId);
      expect(model.requests.length).toBe(replayBefore);
      expect(await runsOf(session)).toBe(1);
    },
  );

  it("a client tool pauses the turn with the call; the caller's result, sent next turn, answers the call still open in the process", async () => {
    const session = "client-tool";
    const template = agent({
      tools: [
        {
          type: "client",
          name: "pick_color",
          description: "Asks the user for a color",
          input_schema: { type: "object", properties: {} },
        },
      ],
    });
    const call = { id: "toolu_client", name: "mcp__agenta-tools__pick_color", input: {} };
    model.script({ kind: "reply", text: "Asking.", toolCalls: [call] }, { kind: "reply", text: "You picked blue." });
    const first = await invokeOver(
      live.origin,
      key,
      "sse",
      "native",
      body(session, [{ role: "user", content: "pick a color" }], template),
    );
    expect(first.events!.find((e) => e.type === "interaction_request")).toEqual({
      type: "interaction_request",
      id: call.id,
      kind: "client_tool",
      payload: { toolCallId: call.id, toolName: "pick_color", input: {} },
    });
    expect(first.events!.at(-1)).toMatchObject({ type: "done", stopReason: "paused" });

    const history = [
      { role: "user", content: "pick a color" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Asking." },
          { type: "tool_call", toolCallId: call.id, toolName: "pick_color", input: {} },
        ],
      },
      {
        role: "tool",
        content: [{ type: "tool_result", tool_call_id: call.id, tool_name: "pick_color", output: "blue" }],
      },
    ];
    const { observed, requests } = await modelRequests(() =>
      invokeOver(live.origin, key, "sse", "native", body(session, history, template)),
    );
    expect(requests).toHaveLength(1);
    expect(sentText(requests[0])).not.toContain("<transcript>");
    expect(
      requests[0].body.messages.at(-1).content.find((b: { type: string }) => b.type === "tool_result"),
    ).toMatchObject({ tool_use_id: call.id, content: [{ type: "text", text: "blue" }] });
    expect(observed.events!.filter((e) => e.type === "tool_result")).toEqual([]);
    expect(nativeText(observed.events!)).toBe("You picked blue.");
  });

  it("continues warm when the history goes on, and restarts cold from the flattened history when it was edited or the template changed", async () => {
    const session = "warm-cold";
    const pool = externalSessions(app.context.config as Config);
    const history = [{ role: "user", content: "my name is Ada" }];
    model.script({ kind: "reply", text: "Hello Ada." });
    await invokeOver(live.origin, key, "batch", "native", body(session, history));
    expect(pool.size).toBeGreaterThan(0);

    // Warm: only the new user text is sent; Claude Code's own transcript carries the rest.
    const next = [
      ...history,
      { role: "assistant", content: "Hello Ada." },
      { role: "user", content: "what is my name?" },
    ];
    model.script({ kind: "reply", text: "Ada." });
    const warm = await modelRequests(() => invokeOver(live.origin, key, "batch", "native", body(session, next)));
    expect(warm.observed.batch.data.outputs.messages.at(-1).content).toBe("Ada.");
    const warmSent = sentText(warm.requests[0]);
    expect(warmSent).not.toContain("<transcript>");
    expect(warm.requests[0].body.messages.filter((m: { role: string }) => m.role === "user")).toHaveLength(2);
    expect(warmSent).toContain("Hello Ada.");

    // Edited history (an earlier user message changed): a new process, told the conversation.
    const edited = [
      { role: "user", content: "my name is Grace" },
      { role: "assistant", content: "Hello Grace." },
      { role: "user", content: "what is my name?" },
    ];
    model.script({ kind: "reply", text: "Grace." });
    const cold = await modelRequests(() => invokeOver(live.origin, key, "batch", "native", body(session, edited)));
    expect(cold.observed.batch.data.outputs.messages.at(-1).content).toBe("Grace.");
    const coldSent = sentText(cold.requests[0]);
    expect(coldSent).toContain("<transcript>");
    expect(coldSent).toContain("[user] my name is Grace");
    expect(coldSent).toContain("[assistant] Hello Grace.");
    expect(coldSent).not.toContain("Ada");

    // The same history again continues warm from the cold start...
    const onward = [...edited, { role: "assistant", content: "Grace." }, { role: "user", content: "thanks" }];
    model.script({ kind: "reply", text: "You are welcome." });
    const warmAgain = await modelRequests(() => invokeOver(live.origin, key, "batch", "native", body(session, onward)));
    expect(sentText(warmAgain.requests[0])).toContain("<transcript>"); // the cold start's first message, now in its transcript
    expect(warmAgain.requests[0].body.messages.filter((m: { role: string }) => m.role === "user")).toHaveLength(2);

    // ...but a changed template evicts the process: cold, with the new instructions.
    const changed = agent({ instructions: { agents_md: "You are the tripling agent." } });
    const further = [...onward, { role: "assistant", content: "You are welcome." }, { role: "user", content: "bye" }];
    model.script({ kind: "reply", text: "Bye." });
    const evicted = await modelRequests(() =>
      invokeOver(live.origin, key, "batch", "native", body(session, further, changed)),
    );
    expect(evicted.requests[0].body.messages.filter((m: { role: string }) => m.role === "user")).toHaveLength(1);
    expect(JSON.stringify(evicted.requests[0].body)).toContain("You are the tripling agent.");
    expect(sentText(evicted.requests[0])).toContain("[user] thanks");
  });

  it("a denial at the gate tells the model and the tool never runs", async () => {
    const session = "deny-warm";
    const call = { id: "toolu_deny", name: "mcp__agenta-tools__double", input: { n: 7 } };
    const template = agent({ tools: [{ ...DOUBLE, permission: "ask" }] });
    model.script({ kind: "reply", toolCalls: [call] }, { kind: "reply", text: "Understood, not doubling." });
    const first = await invokeOver(
      live.origin,
      key,
      "batch",
      "native",
      body(session, [{ role: "user", content: "double 7" }], template),
    );
    const approvalId = first.batch.data.outputs.pending_interaction.id;
    const answer = [
      { role: "user", content: "double 7" },
      {
        role: "assistant",
        content: [{ type: "tool_call", toolCallId: call.id, toolName: "double", input: call.input }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            tool_call_id: call.id,
            tool_name: "double",
            approved: false,
            interaction_token: approvalId,
          },
        ],
      },
    ];
    const { observed, requests } = await modelRequests(() =>
      invokeOver(live.origin, key, "sse", "native", body(session, answer, template)),
    );
    expect(observed.events!.filter((e) => e.type === "tool_result")).toEqual([
      { type: "tool_result", id: call.id, output: DENIED_BY_USER, denied: true },
    ]);
    expect(nativeText(observed.events!)).toBe("Understood, not doubling.");
    expect(JSON.stringify(requests[0].body.messages.at(-1))).toContain(DENIED_BY_USER);
    expect(await runsOf(session)).toBe(0);
  });

  it("an approval that reaches an evicted session resumes cold: the tool runs once and the new process is told the result", async () => {
    const session = "approve-cold";
    const call = { id: "toolu_cold", name: "mcp__agenta-tools__double", input: { n: 8 } };
    const template = agent({ tools: [{ ...DOUBLE, permission: "ask" }] });
    model.script({ kind: "reply", toolCalls: [call] }, { kind: "reply", text: "It is 16." });
    const first = await invokeOver(
      live.origin,
      key,
      "batch",
      "native",
      body(session, [{ role: "user", content: "double 8" }], template),
    );
    const approvalId = first.batch.data.outputs.pending_interaction.id;
    await externalSessions(app.context.config as Config).closeAll();
    const answer = [
      { role: "user", content: "double 8" },
      {
        role: "assistant",
        content: [{ type: "tool_call", toolCallId: call.id, toolName: "double", input: call.input }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            tool_call_id: call.id,
            tool_name: "double",
            approved: true,
            interaction_token: approvalId,
          },
        ],
      },
    ];
    const { observed, requests } = await modelRequests(() =>
      invokeOver(live.origin, key, "sse", "native", body(session, answer, template)),
    );
    expect(observed.events!.filter((e) => e.type === "tool_result")).toEqual([
      { type: "tool_result", id: call.id, output: { result: 16 }, isError: false },
    ]);
    expect(await runsOf(session)).toBe(1);
    expect(requests).toHaveLength(1);
    expect(sentText(requests[0])).toContain('[tool result for toolu_cold: {\\"result\\":16}]');
    expect(nativeText(observed.events!)).toBe("It is 16.");
  });

  it("a rotated credential evicts the warm process: the next turn starts cold with the new key", async () => {
    const session = "rotate";
    const config = app.context.config as Config;
    model.script({ kind: "reply", text: "First." });
    await invokeOver(live.origin, key, "batch", "native", body(session, [{ role: "user", content: "one" }]));
    const previous = config.providerEnv.anthropic;
    config.providerEnv.anthropic = { ...previous, key: "sk-ant-rotated" };
    try {
      model.script({ kind: "reply", text: "Second." });
      const history = [
        { role: "user", content: "one" },
        { role: "assistant", content: "First." },
        { role: "user", content: "two" },
      ];
      const { requests } = await modelRequests(() =>
        invokeOver(live.origin, key, "batch", "native", body(session, history)),
      );
      expect(requests[0].headers["x-api-key"]).toBe("sk-ant-rotated");
      expect(sentText(requests[0])).toContain("<transcript>");
    } finally {
      config.providerEnv.anthropic = previous;
    }
  });

  it("a provider failure is a readable error that quotes neither the key nor the provider's body", async () => {
    model.script({ kind: "status", status: 401, message: "invalid x-api-key sk-ant-external-test" });
    const observed = await invokeOver(
      live.origin,
      key,
      "sse",
      "native",
      body("fails", [{ role: "user", content: "hi" }]),
    );
    expect(observed.events!.filter((e) => e.type === "error")).toEqual([
      { type: "error", message: "The model provider rejected the credential (401). Check the key." },
    ]);
    expect(JSON.stringify(observed.events)).not.toContain("sk-ant-external-test");
    expect(observed.events!.at(-1)).toMatchObject({ type: "done", stopReason: "error" });
  });

  it("unattended runs never wait for a person: deny tells the model, fail ends the turn permission_required", async () => {
    const template = agent({ tools: [{ ...DOUBLE, permission: "ask" }] });
    const call = { id: "toolu_unattended", name: "mcp__agenta-tools__double", input: { n: 3 } };
    model.script({ kind: "reply", toolCalls: [call] }, { kind: "reply", text: "I may not double." });
    const denied = await invokeOver(live.origin, key, "sse", "native", {
      ...body("unattended-deny", [{ role: "user", content: "double 3" }], template),
      flags: { unattended: "deny" },
    });
    expect(denied.events!.find((e) => e.type === "tool_result")).toMatchObject({
      id: call.id,
      isError: true,
      output: expect.stringContaining("unattended"),
    });
    expect(nativeText(denied.events!)).toBe("I may not double.");
    expect(denied.events!.some((e) => e.type === "interaction_request")).toBe(false);

    model.script({ kind: "reply", toolCalls: [{ ...call, id: "toolu_unattended_2" }] });
    const failed = await invokeOver(live.origin, key, "batch", "native", {
      ...body("unattended-fail", [{ role: "user", content: "double 3" }], template),
      flags: { unattended: "fail" },
    });
    expect(failed.batch.data.outputs.stop_reason).toBe("permission_required");
    expect(failed.batch.data.outputs.errors.join(" ")).toContain("double");
    expect(await runsOf("unattended-deny")).toBe(0);
    expect(await runsOf("unattended-fail")).toBe(0);
  });

  it("with flags.cancel_on_disconnect, a client that disconnects mid-turn stops Claude Code and its model request", async () => {
    model.script({ kind: "hang" });
    const controller = new AbortController();
    const arrived = model.nextRequest();
    const response = fetch(`${live.origin}/services/agent/v0/invoke`, {
      method: "POST",
      signal: controller.signal,
      headers: { authorization: `ApiKey ${key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        ...body("disconnect", [{ role: "user", content: "hi" }]),
        flags: { cancel_on_disconnect: true },
      }),
    });
    await arrived;
    const aborted = model.nextAbort();
    controller.abort();
    await expect(response.then((r) => r.text())).rejects.toThrow();
    await aborted;
    // The half-done session is not parked: the next turn of it starts a new process.
    model.script({ kind: "reply", text: "Back." });
    const next = await invokeOver(
      live.origin,
      key,
      "batch",
      "native",
      body("disconnect", [
        { role: "user", content: "hi" },
        { role: "user", content: "again" },
      ]),
    );
    expect(next.batch.data.outputs.messages.at(-1).content).toBe("Back.");
  });

  it("refuses before the run what it cannot reach: another provider, a non-Claude model, self_managed without a host sign-in", async () => {
    const refused = async (template: Record<string, unknown>) =>
      (
        await app.call("POST", "/services/agent/v0/invoke", {
          key,
          headers: { accept: "text/event-stream" },
          body: body("refused", [{ role: "user", content: "hi" }], agent(template)),
        })
      ).body;
    expect(await refused({ llm: { provider: "openai", model: "gpt-5-mini" } })).toMatchObject({
      code: "unsupported_provider",
      detail: expect.stringContaining("anthropic only"),
    });
    expect(await refused({ llm: { model: "gpt-5-mini" } })).toMatchObject({
      code: "unsupported_model",
      detail: expect.stringContaining("sonnet"),
    });
    expect(await refused({ llm: { model: "sonnet", connection: { mode: "self_managed" } } })).toMatchObject({
      code: "missing_connection",
      detail: expect.stringContaining("EXTERNAL_HARNESS_CLOUD"),
    });
  });

  it("serves the template's MCP servers' tools over agenta-tools too; skills are refused before the run", async () => {
    const mcp = await startMcpTestServer();
    const before = app.context.config.egressAllowlist;
    app.context.config.egressAllowlist = loadConfig({ EGRESS_ALLOWLIST: "127.0.0.1" }).egressAllowlist;
    try {
      const template = agent({
        mcps: [
          {
            name: "kb",
            connection: { url: mcp.url },
            policy: { tools: { mode: "include", names: ["echo"] }, permission: "allow" },
          },
        ],
      });
      model.script(
        {
          kind: "reply",
          text: "Echoing.",
          toolCalls: [{ id: "toolu_mcp_1", name: "mcp__agenta-tools__kb__echo", input: { text: "hi" } }],
        },
        { kind: "reply", text: "It said hi." },
      );
      const { observed, requests } = await modelRequests(() =>
        invokeOver(
          live.origin,
          key,
          "sse",
          "native",
          body("mcp-external", [{ role: "user", content: "echo hi" }], template),
        ),
      );
      expect(observed.status).toBe(200);
      expect(requests[0].body.tools.map((t: { name: string }) => t.name)).toContain("mcp__agenta-tools__kb__echo");
      expect(mcp.calls).toEqual(["echo"]);
      expect(observed.events!.filter((e) => e.type === "tool_result")).toMatchObject([
        { type: "tool_result", id: "toolu_mcp_1", isError: false },
      ]);
      expect(JSON.stringify(requests[1].body.messages.at(-1))).toContain("echo: hi");
    } finally {
      app.context.config.egressAllowlist = before;
      await mcp.close();
    }
    const skilled = agent({ skills: [{ name: "triage", description: "Triage", body: "Label it." }] });
    const refused = await app.call("POST", "/services/agent/v0/invoke", {
      key,
      body: body("skills-external", [{ role: "user", content: "hi" }], skilled),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "skills_not_supported", detail: expect.stringContaining("skills") });
  });

  it("the catalog lists it as available on this deployment", async () => {
    const harness = (await app.call("GET", "/api/workflows/catalog/harnesses/external_harness", { key })).body.harness;
    expect(harness).toMatchObject({ kind: "external_harness", available: true });
  });

  it("keeps each process's directory under DATA_DIR and removes it when the session closes", async () => {
    const root = path.join(dataDir, "external-harness");
    const pool = externalSessions(app.context.config as Config);
    // Evicted sessions close in the background, so there may be more directories than parked sessions.
    expect((await readdir(root)).length).toBeGreaterThanOrEqual(pool.size);
    // closeAll also waits for the closes the pool started on its own (evictions).
    await within(EXIT_WAIT_MS, "the pool's sessions to close", pool.closeAll());
    expect(await readdir(root)).toEqual([]);
  });
});

describe("a deployment that has not enabled it", () => {
  it("refuses external_harness before the run with a 400 naming EXTERNAL_HARNESS", async () => {
    const plain = await createTestApp({ providerEnv: { anthropic: { key: "sk-ant-x", baseUrl: model.baseUrl } } });
    try {
      const { key: plainKey } = await plain.newProject();
      const before = model.requests.length;
      for (const accept of ["application/json", "text/event-stream"]) {
        const res = await plain.call("POST", "/services/agent/v0/invoke", {
          key: plainKey,
          headers: { accept },
          body: body("refused", [{ role: "user", content: "hi" }]),
        });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("harness_not_enabled");
        expect(res.body.detail).toContain("EXTERNAL_HARNESS=enabled");
      }
      expect(model.requests.length).toBe(before);
    } finally {
      await plain.close();
    }
  });
});

describe("idle expiry (EXTERNAL_HARNESS_IDLE_MS)", () => {
  it("a session idle past its time loses its process and directory; its next turn starts cold", async () => {
    const defaults = loadConfig({});
    const idleDir = await mkdtemp(path.join(tmpdir(), "external-idle-"));
    const short = await createTestApp({
      dataDir: idleDir,
      externalHarness: { ...defaults.externalHarness, enabled: true, idleMs: 1_000 },
      agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
      providerEnv: { anthropic: { key: "sk-ant-idle", baseUrl: model.baseUrl } },
    });
    const server = await serveOnLoopback(short.handle);
    try {
      const { key: idleKey } = await short.newProject();
      model.script({ kind: "reply", text: "Hi." });
      await invokeOver(server.origin, idleKey, "batch", "native", body("idle", [{ role: "user", content: "hello" }]));
      expect(await readdir(path.join(idleDir, "external-harness"))).toHaveLength(1);
      // The idle expiry is the subject: its timer (1 s) ends the session, whose close is awaited.
      await runsRecorded(short.context);
      const pool = externalSessions(short.context.config as Config);
      await within(1_000 + EXIT_WAIT_MS, "the idle session to close", pool.whenEmpty());
      expect(await readdir(path.join(idleDir, "external-harness"))).toEqual([]);
      model.script({ kind: "reply", text: "Again." });
      const history = [
        { role: "user", content: "hello" },
        { role: "assistant", content: "Hi." },
        { role: "user", content: "again" },
      ];
      const { requests } = await modelRequests(() =>
        invokeOver(server.origin, idleKey, "batch", "native", body("idle", history)),
      );
      expect(sentText(requests[0])).toContain("<transcript>");
    } finally {
      await externalSessions(short.context.config as Config).closeAll();
      await server.close();
      await short.close();
      await rm(idleDir, { recursive: true, force: true });
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onRunFinished, type RunRecord } from "@/server/agent-runs";
import type { NativeEvent } from "@/server/streams";
import { runsRecorded } from "../helpers/after-runs";
import { invokeOver } from "../helpers/invoke-client";
import { createRunFixture, type RunFixture } from "../helpers/run-fixture";

let fixture: RunFixture;
let live: RunFixture["live"];
let model: RunFixture["model"];
let key: string;
const records: RunRecord[] = [];

beforeAll(async () => {
  fixture = await createRunFixture({}, { providerKey: "sk-tools" });
  ({ live, model, key } = fixture);
  onRunFinished((record) => void records.push(record));
});
afterAll(() => fixture.close());

const ALL = ["read", "write", "edit", "grep", "find", "ls", "bash"];
const agent = (extra: Record<string, unknown> = {}, names = ALL) => ({
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: names.map((name) => ({ type: "builtin", name })),
  runner: { permissions: { default: "allow" } },
  ...extra,
});
const body = (sessionId: string, messages: unknown[], template: unknown = agent(), flags?: unknown) => ({
  session_id: sessionId,
  flags,
  data: { inputs: { messages }, parameters: { agent: template } },
});
const user = (text: string) => [{ role: "user", content: text }];
const run = async (payload: unknown): Promise<NativeEvent[]> => {
  const o = await invokeOver(live.origin, key, "sse", "native", payload);
  expect(o.status, JSON.stringify(o.batch)).toBe(200);
  return o.events!;
};
const results = (events: NativeEvent[]) =>
  events
    .filter((e) => e.type === "tool_result")
    .map((e) => ({ id: e.id, output: e.output, isError: e.isError, denied: e.denied }));
const stop = (events: NativeEvent[]) => (events.at(-1) as { stopReason: string }).stopReason;
const approvalIds = (events: NativeEvent[]) =>
  events.filter((e) => e.type === "interaction_request").map((e) => [(e as any).payload.toolCallId, e.id]);

describe("built-in tools through the invoke route", () => {
  it("a default template with built-ins is no longer refused; each tool answers inside the workspace, and the next turn sees the files", async () => {
    model.script(
      {
        kind: "reply",
        text: "Working.",
        toolCalls: [
          { id: "c_write", name: "write", input: { path: "src/app.ts", content: "const a = 1;\nconst b = 2;\n" } },
          { id: "c_edit", name: "edit", input: { path: "src/app.ts", old_string: "b = 2", new_string: "b = 3" } },
          { id: "c_read", name: "read", input: { path: "src/app.ts", offset: 2 } },
          { id: "c_grep", name: "grep", input: { pattern: "const", glob: "*.ts" } },
          { id: "c_find", name: "find", input: { pattern: "*.ts" } },
          { id: "c_ls", name: "ls", input: { path: "src" } },
          { id: "c_bash", name: "bash", input: { command: "wc -l src/app.ts" } },
        ],
      },
      { kind: "reply", text: "Done." },
    );
    const events = await run(body("transcript", user("set up the app")));
    const out = Object.fromEntries(results(events).map((r) => [r.id, r]));
    expect(out.c_write).toEqual({ id: "c_write", output: "wrote 26 bytes to src/app.ts", isError: false });
    expect(out.c_edit.output).toBe("edited src/app.ts");
    expect(out.c_read.output).toBe("     2\tconst b = 3;");
    expect(out.c_grep.output).toBe("/workspace/src/app.ts:1:const a = 1;\n/workspace/src/app.ts:2:const b = 3;\n");
    expect(out.c_find.output).toBe("/workspace/src/app.ts\n");
    expect(out.c_ls.output).toContain("app.ts");
    expect(out.c_bash.output).toBe("2 src/app.ts\n");
    expect(stop(events)).toBe("stop");
    // The tools the model was offered are exactly the template's.
    expect(
      model.requests
        .at(-1)!
        .body.tools.map((t: any) => t.name)
        .sort(),
    ).toEqual([...ALL].sort());
    // execute_tool timings on the run record, which reaches its listeners a moment after the answer (awaited).
    await runsRecorded(fixture.app.context);
    const record = records.find((r) => r.sessionId === "transcript");
    expect(record).toBeDefined();
    const timings = record!.steps.flatMap((s) => s.toolCalls);
    expect(timings.map((t) => t.name)).toEqual(["write", "edit", "read", "grep", "find", "ls", "bash"]);
    for (const t of timings) expect(t.endedAt).toBeGreaterThanOrEqual(t.startedAt);

    model.script(
      {
        kind: "reply",
        text: "Reading.",
        toolCalls: [{ id: "c_again", name: "bash", input: { command: "cat src/app.ts" } }],
      },
      { kind: "reply", text: "ok" },
    );
    expect(results(await run(body("transcript", user("show it"))))[0].output).toBe("const a = 1;\nconst b = 3;\n");
  });

  it("a tool absent from the template does not exist for the model, and a failing call is an error result, never a broken stream", async () => {
    model.script(
      {
        kind: "reply",
        text: "Trying.",
        toolCalls: [
          { id: "c_1", name: "read", input: { path: "/etc/passwd" } },
          { id: "c_2", name: "edit", input: { path: "none.txt", old_string: "a", new_string: "b" } },
        ],
      },
      { kind: "reply", text: "Could not." },
    );
    const events = await run(body("errors", user("read the host"), agent({}, ["read", "edit"])));
    expect(
      model.requests
        .at(-2)!
        .body.tools.map((t: any) => t.name)
        .sort(),
    ).toEqual(["edit", "read"]);
    expect(results(events)).toEqual([
      { id: "c_1", output: expect.stringContaining("outside the workspace"), isError: true, denied: undefined },
      { id: "c_2", output: expect.stringContaining("no such file"), isError: true, denied: undefined },
    ]);
    expect(stop(events)).toBe("stop");
  });
});

describe("permission policy", () => {
  it("harness rules: deny refuses without running, ask pauses, allow runs", async () => {
    const template = agent({
      runner: { permissions: { default: "ask" } },
      harness: { permissions: { allow: ["Bash(echo:*)"], ask: [], deny: ["Bash(rm:*)"] } },
    });
    model.script(
      {
        kind: "reply",
        text: "Go.",
        toolCalls: [
          { id: "c_echo", name: "bash", input: { command: "echo hi" } },
          { id: "c_rm", name: "bash", input: { command: "rm -rf ." } },
        ],
      },
      { kind: "reply", text: "ok" },
    );
    const events = await run(body("rules", user("go"), template));
    expect(results(events)).toEqual(
      expect.arrayContaining([
        { id: "c_echo", output: "hi\n", isError: false, denied: undefined },
        { id: "c_rm", output: expect.stringContaining("does not allow"), isError: true, denied: undefined },
      ]),
    );
    model.script({ kind: "reply", text: "Listing.", toolCalls: [{ id: "c_ls", name: "ls", input: {} }] });
    const paused = await run(body("rules", user("list"), template));
    expect(stop(paused)).toBe("paused");
    expect(approvalIds(paused).map(([id]) => id)).toEqual(["c_ls"]);
  });

  it("two gated calls in one turn can be answered differently; changed arguments or a forged id ask again", async () => {
    const a = { id: "c_a", name: "write", input: { path: "a.txt", content: "A" } };
    const b = { id: "c_b", name: "write", input: { path: "b.txt", content: "B" } };
    model.script({ kind: "reply", text: "Writing both.", toolCalls: [a, b] });
    const first = await run(
      body("two", user("write both"), agent({ runner: { permissions: { default: "allow_reads" } } })),
    );
    const ids = Object.fromEntries(approvalIds(first));
    expect(Object.keys(ids)).toEqual(["c_a", "c_b"]);
    const history = (answers: Array<{ call: typeof a; approved: boolean; token: string; input?: unknown }>) => [
      ...user("write both"),
      {
        role: "assistant",
        content: [
          { type: "text", text: "Writing both." },
          ...answers.map(({ call, input }) => ({
            type: "tool_call",
            toolCallId: call.id,
            toolName: call.name,
            input: input ?? call.input,
          })),
        ],
      },
      {
        role: "tool",
        content: answers.map(({ call, approved, token }) => ({
          type: "tool_result",
          tool_call_id: call.id,
          tool_name: call.name,
          approved,
          interaction_token: token,
        })),
      },
    ];
    const template = agent({ runner: { permissions: { default: "allow_reads" } } });

    // Changed arguments and a forged id: both ask again, nothing runs, the model is not called.
    const before = model.requests.length;
    const tampered = await run(
      body(
        "two",
        history([
          { call: a, approved: true, token: ids.c_a, input: { path: "../x", content: "evil" } },
          { call: b, approved: true, token: "apr_forged" },
        ]),
        template,
      ),
    );
    expect(stop(tampered)).toBe("paused");
    expect(approvalIds(tampered).map(([id]) => id)).toEqual(["c_a", "c_b"]);
    expect(results(tampered)).toEqual([]);
    expect(model.requests.length).toBe(before);

    model.script({ kind: "reply", text: "Wrote a only." }, { kind: "reply", text: "Listed." });
    const resumed = await run(
      body(
        "two",
        history([
          { call: a, approved: true, token: ids.c_a },
          { call: b, approved: false, token: ids.c_b },
        ]),
        template,
      ),
    );
    expect(results(resumed)).toEqual([
      { id: "c_a", output: "wrote 1 bytes to a.txt", isError: false, denied: undefined },
      { id: "c_b", output: "The user denied this tool call.", isError: undefined, denied: true },
    ]);
    expect(stop(resumed)).toBe("stop");
    // ls is read-only, so it runs under allow_reads.
    model.script(
      { kind: "reply", text: "Listing.", toolCalls: [{ id: "c_l", name: "ls", input: {} }] },
      { kind: "reply", text: "ok" },
    );
    const listed = await run(body("two", user("list"), template));
    expect(String(results(listed)[0].output)).toContain("a.txt");
    expect(String(results(listed)[0].output)).not.toContain("b.txt");
  });

  it("unattended runs never hang: deny tells the model, fail ends with permission_required naming the tool", async () => {
    const template = agent({ runner: { permissions: { default: "allow_reads" } } });
    model.script(
      {
        kind: "reply",
        text: "Writing.",
        toolCalls: [{ id: "c_w", name: "write", input: { path: "x", content: "y" } }],
      },
      { kind: "reply", text: "Not allowed, fine." },
    );
    const denied = await run(body("unattended-deny", user("write"), template, { unattended: "deny" }));
    expect(results(denied)).toEqual([
      { id: "c_w", output: expect.stringContaining("unattended"), isError: true, denied: undefined },
    ]);
    expect(stop(denied)).toBe("stop");

    model.script({
      kind: "reply",
      text: "Writing.",
      toolCalls: [{ id: "c_w", name: "write", input: { path: "x", content: "y" } }],
    });
    const failed = await run(body("unattended-fail", user("write"), template, { unattended: "fail" }));
    expect(stop(failed)).toBe("permission_required");
    expect(failed.find((e) => e.type === "error")).toMatchObject({ message: expect.stringContaining("write") });
    expect(failed.some((e) => e.type === "interaction_request")).toBe(false);
  });

  it("flags.unattended outside deny/fail is a 4xx naming the field", async () => {
    const o = await invokeOver(
      live.origin,
      key,
      "batch",
      "native",
      body("bad", user("x"), agent(), { unattended: "maybe" }),
    );
    expect([400, 422]).toContain(o.status);
    expect(JSON.stringify(o.batch)).toContain("flags.unattended");
  });
});

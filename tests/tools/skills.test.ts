import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxWorkspaces } from "@/server/db/schema";
import type { SnapshotEntry } from "@/server/sandbox";
import type { NativeEvent } from "@/server/streams";
import { invokeOver, type FormatName } from "../helpers/invoke-client";
import { createRunFixture, type RunFixture } from "../helpers/run-fixture";

let fixture: RunFixture;
let app: RunFixture["app"];
let live: RunFixture["live"];
let model: RunFixture["model"];
let key: string;
let projectId: string;

beforeAll(async () => {
  fixture = await createRunFixture({}, { providerKey: "sk-skills" });
  ({ app, live, model, key, projectId } = fixture);
});
afterAll(() => fixture.close());

const PDF = {
  name: "pdf-tools",
  description: "Fill PDF forms: use when the user sends a form to complete.",
  body: "# Filling forms\n\nRun scripts/fill.sh with the form's path.",
  allow_executable_files: true,
  files: [
    { path: "scripts/fill.sh", content: "#!/bin/sh\necho filled\n", executable: true },
    { path: "docs/fields.md", content: "name, date" },
  ],
};
const HIDDEN = {
  name: "release-checklist",
  description: "Steps of a release, only on request.",
  body: "1. Tag.",
  disable_model_invocation: true,
};
const agent = (extra: Record<string, unknown> = {}) => ({
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: [
    { type: "builtin", name: "read" },
    { type: "builtin", name: "ls" },
    { type: "builtin", name: "bash" },
  ],
  skills: [PDF, HIDDEN],
  runner: { permissions: { default: "allow" } },
  ...extra,
});
const body = (sessionId: string, template: unknown) => ({
  session_id: sessionId,
  data: { inputs: { messages: [{ role: "user", content: "fill my form" }] }, parameters: { agent: template } },
});
const results = (events: NativeEvent[]) =>
  Object.fromEntries(
    events.filter((e) => e.type === "tool_result").map((e) => [e.id, { output: e.output, isError: e.isError }]),
  );
const invoke = (payload: unknown, format: FormatName = "native") =>
  invokeOver(live.origin, key, "sse", format, payload);
const stored = async (sessionId: string) => {
  const [row] = await app.database.db
    .select({ entries: sandboxWorkspaces.entries })
    .from(sandboxWorkspaces)
    .where(and(eq(sandboxWorkspaces.projectId, projectId), eq(sandboxWorkspaces.sessionId, sessionId)));
  return Object.fromEntries(
    ((row?.entries ?? []) as SnapshotEntry[])
      .filter((e) => e.kind === "file")
      .map((e) => [e.path, (e as { mode: number }).mode & 0o777]),
  );
};

describe("skills (skills[]) in the session workspace", () => {
  it("a new session starts with skills/<name>/SKILL.md and its files; the prompt lists the invocable skills; read opens the SKILL.md", async () => {
    model.script(
      {
        kind: "reply",
        text: "Reading the skill.",
        toolCalls: [
          { id: "c_read", name: "read", input: { path: "skills/pdf-tools/SKILL.md" } },
          {
            id: "c_mode",
            name: "bash",
            input: {
              command:
                "stat -c '%a %n' skills/pdf-tools/SKILL.md skills/pdf-tools/scripts/fill.sh skills/pdf-tools/docs/fields.md",
            },
          },
          { id: "c_hidden", name: "read", input: { path: "skills/release-checklist/SKILL.md" } },
          { id: "c_touch", name: "bash", input: { command: "cat skills/pdf-tools/docs/fields.md" } },
        ],
      },
      { kind: "reply", text: "Filled." },
    );
    const o = await invoke(body("skills-new", agent()));
    expect(o.status, JSON.stringify(o.batch)).toBe(200);
    const out = results(o.events!);
    expect(out.c_read).toEqual({
      output: [
        "     1\t---",
        "     2\tname: pdf-tools",
        '     3\tdescription: "Fill PDF forms: use when the user sends a form to complete."',
        "     4\tdisable-model-invocation: false",
        "     5\t---",
        "     6\t",
        "     7\t# Filling forms",
        "     8\t",
        "     9\tRun scripts/fill.sh with the form's path.",
      ].join("\n"),
      isError: false,
    });
    expect(out.c_mode).toEqual({
      output:
        "644 skills/pdf-tools/SKILL.md\n755 skills/pdf-tools/scripts/fill.sh\n644 skills/pdf-tools/docs/fields.md\n",
      isError: false,
    });
    expect(String(out.c_hidden.output)).toContain("disable-model-invocation: true");
    expect(out.c_touch).toEqual({ output: "name, date", isError: false });

    // What the model was told: the invocable skill with its path; the hidden one not by name.
    const system = JSON.stringify(model.requests.at(-2)!.body);
    expect(system).toContain(
      "- pdf-tools: Fill PDF forms: use when the user sends a form to complete. (/workspace/skills/pdf-tools/SKILL.md)",
    );
    expect(system).not.toContain("release-checklist");

    // The workspace saved after bash holds the files with their modes.
    expect(await stored("skills-new")).toEqual({
      "/workspace/skills/pdf-tools/SKILL.md": 0o644,
      "/workspace/skills/pdf-tools/scripts/fill.sh": 0o755,
      "/workspace/skills/pdf-tools/docs/fields.md": 0o644,
      "/workspace/skills/release-checklist/SKILL.md": 0o644,
    });
  });

  it("a skill hidden from the model is named in the prompt of a turn whose user message invokes it", async () => {
    model.script({ kind: "reply", text: "ok" });
    const o = await invoke({
      session_id: "skills-invoke",
      data: {
        inputs: { messages: [{ role: "user", content: "/release-checklist for 2.1" }] },
        parameters: { agent: agent() },
      },
    });
    expect(o.status).toBe(200);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain(
      "The user asked for the skill release-checklist: read /workspace/skills/release-checklist/SKILL.md first",
    );
  });

  it("the template owns skills/<name>: an edit in the workspace or a removed file does not outlive the next turn", async () => {
    model.script(
      {
        kind: "reply",
        text: "Editing.",
        toolCalls: [
          {
            id: "c_edit",
            name: "bash",
            input: { command: "echo changed > skills/pdf-tools/SKILL.md && echo mine > notes.txt" },
          },
        ],
      },
      { kind: "reply", text: "ok" },
    );
    await invoke(body("skills-owned", agent()));
    const lighter = agent({ skills: [{ ...PDF, files: [PDF.files[1]] }] });
    model.script(
      {
        kind: "reply",
        text: "Again.",
        toolCalls: [
          {
            id: "c_cat",
            name: "bash",
            input: { command: "head -2 skills/pdf-tools/SKILL.md; ls -1 skills/pdf-tools; cat notes.txt" },
          },
        ],
      },
      { kind: "reply", text: "ok" },
    );
    const o = await invoke(body("skills-owned", lighter));
    expect(results(o.events!).c_cat).toEqual({
      output: "---\nname: pdf-tools\nSKILL.md\ndocs\nmine\n",
      isError: false,
    });
  });

  it("no executable bit when the sandbox declares a read-only file system", async () => {
    const template = agent({
      sandbox: {
        kind: "local",
        permissions: { network: { mode: "off" }, filesystem: "readonly", enforcement: "best_effort" },
      },
    });
    model.script(
      {
        kind: "reply",
        text: "Checking.",
        toolCalls: [{ id: "c_mode", name: "bash", input: { command: "stat -c %a skills/pdf-tools/scripts/fill.sh" } }],
      },
      { kind: "reply", text: "ok" },
    );
    const o = await invoke(body("skills-readonly", template));
    expect(results(o.events!).c_mode).toEqual({ output: "644\n", isError: false });
  });

  it("an embedded skill arrives resolved, in the UI message stream too", async () => {
    const shared = await app.call("POST", "/api/workflows/", {
      key,
      body: {
        workflow: {
          slug: "shared-skills",
          data: {
            parameters: {
              skill: { name: "summarise", description: "Summarise text in one line.", body: "Write one line." },
            },
          },
        },
      },
    });
    expect(shared.status).toBe(200);
    const embed = {
      "@svc.embed": {
        "@svc.references": { workflow: { slug: "shared-skills" } },
        "@svc.selector": { path: "parameters.skill" },
      },
    };
    model.script(
      {
        kind: "reply",
        text: "Reading.",
        toolCalls: [{ id: "u_read", name: "read", input: { path: "skills/summarise/SKILL.md", offset: 7 } }],
      },
      { kind: "reply", text: "ok" },
    );
    const o = await invoke(body("skills-embed", agent({ skills: [embed] })), "ui_sdk");
    expect(o.status, JSON.stringify(o.batch)).toBe(200);
    expect(o.chunks!.find((c) => c.type === "tool-output-available" && c.toolCallId === "u_read").output).toBe(
      "     7\tWrite one line.",
    );
    expect(JSON.stringify(model.requests.at(-2)!.body)).toContain(
      "- summarise: Summarise text in one line. (/workspace/skills/summarise/SKILL.md)",
    );
  });

  it("skills an agent could not read are refused before the run, naming the fix", async () => {
    const o = await invoke(body("skills-unreadable", agent({ tools: [{ type: "builtin", name: "write" }] })));
    expect(o.status).toBe(400);
    expect(o.batch.detail).toContain('neither the "read" nor the "bash" built-in');
  });
});

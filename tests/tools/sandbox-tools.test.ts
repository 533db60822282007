import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from "@/server/agent-template";
import { BUILTIN_TOOLS } from "@/server/agent-runs/tools/builtin";
import { capResult } from "@/server/agent-runs/tools/cap-result";
import { SessionSandbox } from "@/server/sandbox";
import { createTestApp, type TestApp } from "../helpers/test-app";

let app: TestApp;
let projectId: string;
const limits = { maxBytes: 4096, idleMs: 60_000, commandTimeoutMs: 2_000 };

beforeAll(async () => {
  app = await createTestApp();
  ({ projectId } = await app.newProject());
});
afterAll(() => app.close());

const sandboxFor = (sessionId: string, overrides: Partial<typeof limits> = {}) =>
  new SessionSandbox({
    db: app.context.db,
    projectId,
    sessionId,
    limits: { ...limits, ...overrides },
    now: () => app.context.now(),
  });

/** Runs a built-in the way the registry does: the body, then a save when it may have written. */
async function call(sandbox: SessionSandbox, name: BuiltinToolName, input: Record<string, unknown>): Promise<string> {
  const definition = BUILTIN_TOOLS[name];
  try {
    return await definition.run(sandbox, input);
  } finally {
    if (definition.writes) await sandbox.persist();
  }
}

describe("built-in tools in the session workspace", () => {
  it("write, read with line numbers and offset/limit, edit exactly once, grep, find, ls, bash", async () => {
    const box = sandboxFor("tools-1");
    expect(await call(box, "write", { path: "src/a.txt", content: "alpha\nbeta\ngamma\nbeta\n" })).toBe(
      "wrote 22 bytes to src/a.txt",
    );
    expect(await call(box, "read", { path: "src/a.txt" })).toBe(
      "     1\talpha\n     2\tbeta\n     3\tgamma\n     4\tbeta",
    );
    expect(await call(box, "read", { path: "src/a.txt", offset: 2, limit: 2 })).toBe("     2\tbeta\n     3\tgamma");
    await expect(call(box, "edit", { path: "src/a.txt", old_string: "beta", new_string: "BETA" })).rejects.toThrow(
      "occurs 2 times",
    );
    await expect(call(box, "edit", { path: "src/a.txt", old_string: "delta", new_string: "x" })).rejects.toThrow(
      "was not found",
    );
    expect(await call(box, "edit", { path: "src/a.txt", old_string: "gamma", new_string: "$& GAMMA" })).toBe(
      "edited src/a.txt",
    );
    expect(await call(box, "read", { path: "src/a.txt", offset: 3, limit: 1 })).toBe("     3\t$& GAMMA");
    expect(await call(box, "grep", { pattern: "^be", path: "src" })).toBe(
      "/workspace/src/a.txt:2:beta\n/workspace/src/a.txt:4:beta\n",
    );
    expect(await call(box, "grep", { pattern: "nothing-here" })).toBe("(no output)");
    expect(await call(box, "find", { pattern: "*.txt" })).toBe("/workspace/src/a.txt\n");
    expect(await call(box, "ls", { path: "src" })).toContain("a.txt");
    expect(await call(box, "bash", { command: "cd src && wc -l < a.txt && echo made > b.txt" })).toBe("4\n");
    await expect(call(box, "bash", { command: "exit 3" })).rejects.toThrow("exit code 3");
  });

  it("files written in one turn are there in the next, from a fresh sandbox object (another process)", async () => {
    await call(sandboxFor("tools-2"), "bash", {
      command: "mkdir -p d/e && printf 'kept' > d/e/f.txt && ln -s d/e/f.txt link",
    });
    const next = sandboxFor("tools-2");
    expect(await call(next, "read", { path: "link" })).toBe("     1\tkept");
    expect(await call(next, "bash", { command: "cat d/e/f.txt" })).toBe("kept");
    // Another session of the same project starts empty.
    expect(await call(sandboxFor("tools-3"), "bash", { command: "ls -A" })).toBe("(no output)");
  });

  it("a workspace idle past its expiry starts empty", async () => {
    await call(sandboxFor("tools-idle"), "write", { path: "old.txt", content: "x" });
    expect(await call(sandboxFor("tools-idle"), "read", { path: "old.txt" })).toBe("     1\tx");
    // The expiry is read by the app's clock: moved past it, not waited out.
    app.advanceClock(limits.idleMs + 1);
    await expect(call(sandboxFor("tools-idle"), "read", { path: "old.txt" })).rejects.toThrow("no such file");
  });

  it("a call that grows the workspace past its cap fails and is undone", async () => {
    const box = sandboxFor("tools-cap");
    await call(box, "write", { path: "small.txt", content: "ok" });
    await expect(call(box, "write", { path: "big.txt", content: "x".repeat(5000) })).rejects.toThrow(
      "over its cap of 4096",
    );
    expect(await call(box, "ls", {})).not.toContain("big.txt");
    expect(await call(sandboxFor("tools-cap"), "bash", { command: "ls" })).toBe("small.txt\n");
  });

  it("a runaway command stops at the command time limit", async () => {
    const box = sandboxFor("tools-slow", { commandTimeoutMs: 200 });
    await expect(call(box, "bash", { command: "while true; do :; done" })).rejects.toThrow(/exit code|stopped/);
  }, 60_000);
});

describe("nothing reaches the host", () => {
  const escapes: Array<[BuiltinToolName, Record<string, unknown>, RegExp]> = [
    ["read", { path: "/etc/passwd" }, /outside the workspace/],
    ["read", { path: "../../etc/passwd" }, /outside the workspace/],
    ["read", { path: "/proc/self/environ" }, /outside the workspace/],
    ["write", { path: "/tmp/escape.txt", content: "x" }, /outside the workspace/],
    ["edit", { path: "../../../etc/hosts", old_string: "a", new_string: "b" }, /outside the workspace/],
    ["ls", { path: "/" }, /outside the workspace/],
    ["grep", { pattern: "root", path: "/etc" }, /outside the workspace/],
    ["find", { pattern: "*", path: ".." }, /outside the workspace/],
  ];
  it.each(escapes)("%s %j is refused", async (name, input, message) => {
    await expect(call(sandboxFor("escape"), name, input)).rejects.toThrow(message);
  });

  it("a symlink made inside the sandbox does not lead out", async () => {
    const box = sandboxFor("escape-link");
    await call(box, "bash", { command: "ln -s /etc/passwd pw; ln -s ../../../../etc up" });
    await expect(call(box, "read", { path: "pw" })).rejects.toThrow(/no such file|outside/);
    await expect(call(box, "read", { path: "up/passwd" })).rejects.toThrow(/no such file|outside/);
    await expect(call(box, "bash", { command: "cat pw" })).rejects.toThrow("No such file");
  });

  it("bash sees a virtual root: no host files, no /proc of the host, no host programs", async () => {
    const box = sandboxFor("escape-bash");
    for (const command of [
      "cat /etc/passwd",
      "cat ../../etc/passwd",
      "cat /proc/self/environ",
      "cat /proc/1/cmdline",
      "ls /home",
    ]) {
      await expect(call(box, "bash", { command }), command).rejects.toThrow(/No such file|cannot access/);
    }
    for (const command of [
      'node -e \'require("fs").writeFileSync("/tmp/pwned","x")\'',
      "python3 -c 'print(1)'",
      "curl http://127.0.0.1/",
      "/bin/sh -c 'touch /tmp/pwned'",
    ]) {
      await call(box, "bash", { command }).catch(() => undefined);
    }
    expect(existsSync("/tmp/pwned")).toBe(false);
    expect(await call(box, "bash", { command: "echo x > /tmp/inside.txt; cat /tmp/inside.txt" })).toBe("x\n");
    expect(existsSync("/tmp/inside.txt")).toBe(false);
  });
});

it("results are cut on a UTF-8 character boundary", () => {
  const cut = capResult("aé€😀", 4);
  expect(cut.startsWith("aé")).toBe(true);
  expect(cut).toContain("[result cut: 7 more bytes");
  expect(capResult("short", 10)).toBe("short");
  expect(BUILTIN_TOOL_NAMES).toHaveLength(7);
});

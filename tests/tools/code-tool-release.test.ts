import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeRuntime, pythonRuntime } from "@/server/agent-runs";
import { createAccount } from "@/server/auth";
import { PROJECT_SETUPS } from "@/server/boot";
import type { DatabaseHandle } from "@/server/db";
import { SessionSandbox } from "@/server/sandbox";
import { eventually } from "../helpers/eventually";
import { openTestDatabase } from "../helpers/test-database";

/**
 * What a code-tool call holds is its own worker thread (QuickJS, or just-bash's CPython, each a
 * WebAssembly module with its memory): the call is over only once that thread is gone. Counted by
 * the operating system (Linux's /proc/self/task), so a worker kept alive, by a listener or a
 * reference, shows whatever keeps it.
 */
const threads = () => fs.readdirSync("/proc/self/task").length;

/** The thread count once back to `baseline`, or as it is after `timeoutMs`: only the OS tells, so it is polled. */
async function settlesTo(baseline: number, timeoutMs = 15_000): Promise<number> {
  await eventually("the threads to end", () => threads() <= baseline, { ms: timeoutMs }).catch(() => undefined);
  return threads();
}

const limits = { timeoutMs: 30_000, memoryMb: 512 };

describe.skipIf(!fs.existsSync("/proc/self/task"))("a code-tool call releases its worker thread", () => {
  let database: DatabaseHandle;
  let projectId: string;
  beforeAll(async () => {
    database = await openTestDatabase();
    const account = await createAccount(database.db, PROJECT_SETUPS, {
      email: "release@test.local",
      projectName: "release",
    });
    projectId = account.project.id;
  });
  afterAll(() => database.close());

  it("node: five calls leave as many threads as there were", async () => {
    const call = (a: number) =>
      nodeRuntime.run({ script: "function main({ a }) { return { a }; }", input: { a }, env: {}, limits });
    const baseline = threads();
    expect(await Promise.all([1, 2, 3, 4, 5].map(call))).toEqual([1, 2, 3, 4, 5].map((a) => ({ a })));
    expect(await settlesTo(baseline)).toBeLessThanOrEqual(baseline);
  });

  it("python: calls in sessions of their own leave as many threads as there were", async () => {
    const call = async (a: number) => {
      const sandbox = new SessionSandbox({
        db: database.db,
        projectId,
        sessionId: `release-${a}`,
        limits: { maxBytes: 1_000_000, idleMs: 60_000, commandTimeoutMs: 30_000 },
      });
      return pythonRuntime.run({
        script: "def main(a):\n    return {'a': a}\n",
        input: { a },
        env: {},
        limits,
        sandbox,
      });
    };
    const baseline = threads();
    expect(await call(1)).toEqual({ a: 1 });
    expect(await call(2)).toEqual({ a: 2 });
    expect(await settlesTo(baseline)).toBeLessThanOrEqual(baseline);
  }, 120_000);
});

import { once } from "node:events";
import fs from "node:fs";
import type { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeRuntime, pythonRuntime } from "@/server/agent-runs";
import { createAccount } from "@/server/auth";
import { PROJECT_SETUPS } from "@/server/boot";
import type { DatabaseHandle } from "@/server/db";
import { SessionSandbox } from "@/server/sandbox";
import { openTestDatabase } from "../helpers/test-database";
import { within } from "../helpers/within";

/**
 * What a code-tool call holds is its own worker thread (QuickJS, or just-bash's CPython, each a
 * WebAssembly module with its memory): the call is over only once that thread is gone. Counted by
 * the operating system (Linux's /proc/self/task), so a worker kept alive, by a listener or a
 * reference, shows whatever keeps it.
 */
const threads = () => fs.readdirSync("/proc/self/task").length;

/**
 * Runs `work`, then awaits the exit of every worker thread created while it ran (Node names each
 * one in the process's `worker` event; `exit` comes once the thread has been joined) and returns
 * the thread count then. A thread kept alive fails the bound, naming it.
 */
async function threadsAfter<T>(work: () => Promise<T>, timeoutMs = 15_000): Promise<{ result: T; count: number }> {
  const exits: Promise<unknown>[] = [];
  const onWorker = (worker: Worker) => exits.push(once(worker, "exit"));
  process.on("worker", onWorker);
  let result: T;
  try {
    result = await work();
  } finally {
    process.off("worker", onWorker);
  }
  expect(exits.length).toBeGreaterThan(0);
  await within(timeoutMs, `the ${exits.length} worker threads of the calls to end`, Promise.all(exits));
  return { result, count: threads() };
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
    const { result, count } = await threadsAfter(() => Promise.all([1, 2, 3, 4, 5].map(call)));
    expect(result).toEqual([1, 2, 3, 4, 5].map((a) => ({ a })));
    expect(count).toBeLessThanOrEqual(baseline);
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
    const { result, count } = await threadsAfter(async () => [await call(1), await call(2)]);
    expect(result).toEqual([{ a: 1 }, { a: 2 }]);
    expect(count).toBeLessThanOrEqual(baseline);
  }, 120_000);
});

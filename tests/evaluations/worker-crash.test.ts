import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluationResults, evaluationScenarios } from "@/server/db/schema";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { ADDER_PROMPT, arithmeticModel, createEntity, evaluationApp, settled, startWorker } from "./eval-fixtures";
import { within } from "../helpers/within";

// Another process on the same database needs real PostgreSQL (PGlite lives inside one process).
const pg = !!process.env.DATABASE_URL;

describe.skipIf(!pg)("a worker killed with SIGKILL mid-run on PostgreSQL", () => {
  let t: TestApp;
  let model: ScriptedModelServer;
  let child: ChildProcess;
  const secretKey = randomBytes(32);

  beforeAll(async () => {
    model = await startScriptedModelServer();
    const answer = arithmeticModel();
    model.respondWith((request) => ({ ...(answer(request) as object), delayMs: 40 }) as never);
    t = await evaluationApp(model, { secretKey });
  });
  afterAll(async () => {
    if (child?.exitCode === null) child.kill("SIGKILL");
    await t.close();
    await model.close();
  });

  it("loses no cell and writes none twice: after a restart the run finishes with the exact cell count", async () => {
    const { key } = await t.newProject();
    const prompt = (
      await createEntity(t, key, "applications", "application", {
        slug: "adder",
        data: ADDER_PROMPT,
      })
    ).revision_id;
    const exact = (
      await createEntity(t, key, "evaluators", "evaluator", {
        slug: "exact",
        data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
      })
    ).revision_id;

    child = spawn(process.execPath, ["--import", "tsx", "tests/evaluations/fixtures/worker-process.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: t.database.url,
        APP_SECRET_KEY: secretKey.toString("base64"),
        LOG_LEVEL: "silent",
        NODE_ENV: "test",
        OPENAI_API_KEY: "sk-crash",
        OPENAI_BASE_URL: model.baseUrl,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("WORKING") && resolve());
      child.on("exit", (code) => reject(new Error(`worker exited with ${code}`)));
    });

    const requestsBefore = model.requests.length;
    const testcases = Array.from({ length: 40 }, (_, i) => ({ a: i, b: 1, correct_answer: String(i + 1) }));
    const res = await t.call("POST", "/api/simple/evaluations/", {
      key,
      body: {
        evaluation: {
          data: {
            testcases,
            application_steps: [prompt],
            evaluator_steps: [exact],
            repeats: 2,
            concurrency: { batch_size: 4 },
          },
        },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.evaluation.id;
    // 40 scenarios x (2 input + 1 application + 2 evaluator cells).
    expect(res.body.evaluation.progress.cells_total).toBe(200);

    // Killed while cells are leased and others are done: the child's 20th model call has just
    // arrived (its cell leased, the 16 before it recorded, their scenarios' evaluators with them).
    await within(30_000, "the worker process's first 20 model calls", model.requestsReceived(requestsBefore + 20));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const atKill = (await t.call("GET", `/api/simple/evaluations/${id}`, { key })).body.evaluation;
    expect(atKill.data.status).toBe("running");
    expect(Object.values(atKill.progress.steps).some((s: any) => s.running > 0)).toBe(true);
    expect(atKill.progress.cells_done).toBeGreaterThanOrEqual(res.body.evaluation.progress.cells_done + 16);
    expect(atKill.progress.cells_done).toBeLessThan(200);

    // A fresh worker takes the dead one's cells over once their leases run out.
    const worker = startWorker(t, { leaseMs: 1_000 });
    try {
      // The dead worker's leases run out on the clock (1 s): until then each pass finds nothing due.
      const done = await settled(t, key, id);
      expect(done.data.status).toBe("success");
      expect(done.progress).toMatchObject({ cells_total: 200, cells_done: 200 });
    } finally {
      await worker.stop();
    }
    const rows = await t.context.db.select().from(evaluationResults).where(eq(evaluationResults.runId, id));
    expect(rows).toHaveLength(200);
    expect(rows.every((r) => r.status === "success" && r.leaseToken === null)).toBe(true);
    const keys = new Set(rows.map((r) => `${r.scenarioId}/${r.stepKey}/${r.repeatIdx}`));
    expect(keys.size).toBe(200);
    const scores = rows.filter((r) => r.stepKey.startsWith("evaluator-"));
    expect(scores.filter((r) => (r.outputs as { success: boolean }).success)).toHaveLength(80);
    const scenarios = await t.context.db.select().from(evaluationScenarios).where(eq(evaluationScenarios.runId, id));
    expect(scenarios.map((s) => s.status)).toEqual(Array(40).fill("success"));
  }, 120_000);
});

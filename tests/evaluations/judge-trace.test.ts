import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluationResults } from "@/server/db/schema";
import { drainIngestQueue } from "@/server/tracing";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { attribute, traceSpans, type SpanNode } from "../helpers/run-trace";
import type { TestApp } from "../helpers/test-app";
import {
  ADDER_PROMPT,
  arithmeticModel,
  createEntity,
  evaluationApp,
  requestText,
  settled,
  startWorker,
} from "./eval-fixtures";

// A judge's model call is one of the service's own: traced as a prompt application's call is
// (invoke_agent > turn 1 > chat, with model, tokens, price and finish reason), named after the
// evaluator and referencing the evaluation run and the evaluator revision of the cell it grades.
let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;

const GRADING = [
  { role: "system", content: "Grade the sum. Reply with JSON." },
  { role: "user", content: "Question: {{question}}\nAnswer: {{outputs}}" },
];

beforeAll(async () => {
  model = await startScriptedModelServer();
  const adder = arithmeticModel();
  // The judges' requests carry their grading prompt: gpt-4o-mini grades, gpt-4.1-nano's key is refused.
  model.respondWith((request) => {
    if (!requestText(request).includes("Grade the sum")) return adder(request);
    if (request.body.model === "gpt-4.1-nano") return { kind: "status", status: 401, message: "bad key" };
    return { kind: "reply", text: '{"score": 0.9}', usage: { input: 40, output: 6 } };
  });
  t = await evaluationApp(model);
  ({ key } = await t.newProject());
  worker = startWorker(t);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  await model?.close();
});

/** The root spans (`invoke_agent`) of the traces that reference the evaluation run. */
async function judgeTraces(runId: string, expected: number): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    await drainIngestQueue(t.context);
    const res = await t.call("POST", "/api/traces/query", {
      key,
      body: {
        filtering: {
          operator: "and",
          conditions: [
            { field: "references", operator: "in", value: [{ id: runId, attributes: { key: "evaluation_run" } }] },
          ],
        },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = [...new Set<string>(JSON.stringify(res.body).match(/"trace_id":"[0-9a-f]{32}"/g) ?? [])].map((m) =>
      m.slice(12, -1),
    );
    if (ids.length >= expected) return ids;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the run ${runId} has no ${expected} judge traces`);
}

const named = (spans: SpanNode[], prefix: string) => spans.find((s) => s.span_name.startsWith(prefix))!;

describe("a judge evaluator's model call", () => {
  it("is traced with its model, tokens, price and finish reason, referencing the run and evaluator; a failed call as an error", async () => {
    const prompt = (await createEntity(t, key, "applications", "application", { slug: "adder", data: ADDER_PROMPT }))
      .revision_id;
    const grader = await createEntity(t, key, "evaluators", "evaluator", {
      slug: "grader",
      data: {
        uri: "svc:builtin:auto_ai_critique:v0",
        parameters: { prompt_template: GRADING, model: "openai/gpt-4o-mini" },
      },
    });
    const refused = await createEntity(t, key, "evaluators", "evaluator", {
      slug: "refused-judge",
      data: {
        uri: "svc:builtin:auto_ai_critique:v0",
        parameters: { prompt_template: GRADING, model: "openai/gpt-4.1-nano" },
      },
    });
    const started = await t.call("POST", "/api/simple/evaluations/", {
      key,
      body: {
        evaluation: {
          data: {
            testcases: [{ a: 2, b: 3, question: "What is 2 + 3?", correct_answer: "5" }],
            application_steps: [prompt],
            evaluator_steps: [grader.revision_id, refused.revision_id],
          },
        },
      },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const runId = started.body.evaluation.id;
    await settled(t, key, runId);
    const cells = await t.context.db.select().from(evaluationResults).where(eq(evaluationResults.runId, runId));
    const graded = cells.find((c) => (c.outputs as { score?: number } | null)?.score === 0.9)!;
    const failed = cells.find((c) => c.status === "failure")!;
    expect(graded, JSON.stringify(cells.map((c) => [c.stepKey, c.status, c.outputs, c.error]))).toBeDefined();
    expect(failed.error).toMatchObject({ code: "provider_rejected" });

    const traceIds = await judgeTraces(runId, 2);
    expect(traceIds).toHaveLength(2);
    const traces = await Promise.all(traceIds.map((id) => traceSpans(t, key, id, 3)));
    const rootOf = (spans: SpanNode[]) => named(spans, "invoke_agent");
    const ok = traces.find((spans) => rootOf(spans).span_name === "invoke_agent grader")!;
    const error = traces.find((spans) => rootOf(spans).span_name === "invoke_agent refused-judge")!;
    expect(ok).toBeDefined();
    expect(error).toBeDefined();

    const root = rootOf(ok);
    const chat = named(ok, "chat ");
    expect(attribute(root, "ag.meta.run.harness")).toBe("judge");
    expect(attribute(root, "ag.meta.run.stop_reason")).toBe("end_turn");
    expect(chat.span_name).toBe("chat gpt-4o-mini");
    expect(attribute(chat, "gen_ai.request.model")).toBe("gpt-4o-mini");
    expect(attribute(chat, "gen_ai.usage")).toEqual({ input_tokens: 40, output_tokens: 6 });
    expect(attribute(chat, "gen_ai.response.finish_reasons")).toEqual(["stop"]);
    const price = attribute(chat, "ag.metrics.costs.incremental.total") as number;
    expect(price).toBeGreaterThan(0);
    // The cell's cost is the traced call's.
    expect(graded.costUsd).toBeCloseTo(price, 12);
    expect(graded.tokens).toBe(46);
    // The judge's answer is the step's text as it came, not quoted again.
    expect(JSON.stringify(attribute(chat, "ag.data.outputs"))).toContain('\\"score\\": 0.9');
    // The references link the grading to the run and to the evaluator revision.
    const references = JSON.stringify(
      (await t.call("GET", `/api/traces/${traceIds[traces.indexOf(ok)]}`, { key })).body,
    );
    expect(references).toContain(runId);
    expect(references).toContain(grader.revision_id);

    const errorRoot = rootOf(error);
    const errorChat = named(error, "chat ");
    expect(errorRoot.status_code).toBe("STATUS_CODE_ERROR");
    expect(errorChat.status_code).toBe("STATUS_CODE_ERROR");
    expect(errorChat.status_message).toBe((failed.error as { message: string }).message);
    expect(errorChat.status_message).toContain("rejected the credential (401)");
    expect(attribute(errorChat, "gen_ai.request.model")).toBe("gpt-4.1-nano");
    expect(JSON.stringify(error)).not.toContain("sk-eval-operator");
  });
});

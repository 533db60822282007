import { expect } from "vitest";
import { drainIngestQueue } from "@/server/tracing";
import { createEntity, settled, startWorker } from "../evaluations/eval-fixtures";
import type { TestApp } from "../helpers/test-app";
import { runSpans, type RunSpec } from "./helpers";

const MINUTE = 60_000;

export interface LiveScores {
  /** Evaluator ids (artifact ids, the roll-up's `evaluator`): score + verdict, and verdict only. */
  similarity: string;
  exact: string;
  runId: string;
  /** Ingests a run whose root holds `answer` as output and `expected` as its correct answer. */
  run(spec: RunSpec & { answer: string; expected: string }): Promise<string>;
  /** Ticks the live run over [oldest, newest) (hour windows, as the admin refresh takes them) and waits for every cell. */
  score(oldest: string, newest: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A live evaluation of every invocation trace of a project with two in-process evaluators:
 * similarity (`score` 0..1 and `success` at 0.6) and exact match (`success` only), scored by a
 * real evaluation worker after ticks of the admin refresh route. `t` needs `cronSecret`.
 */
export async function liveScores(t: TestApp, key: string, cronSecret: string): Promise<LiveScores> {
  const similarity = await createEntity(t, key, "evaluators", "evaluator", {
    slug: "similar",
    data: { uri: "svc:builtin:auto_similarity_match:v0", parameters: { threshold: 0.6 } },
  });
  const exact = await createEntity(t, key, "evaluators", "evaluator", {
    slug: "exact",
    data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
  });
  const query = await createEntity(t, key, "queries", "query", {
    slug: "all-runs",
    data: { filtering: { operator: "and", conditions: [{ field: "trace_type", value: "invocation" }] } },
  });
  const res = await t.call("POST", "/api/simple/evaluations/", {
    key,
    body: {
      evaluation: {
        name: "live scores",
        flags: { is_live: true },
        data: { query_steps: [query.revision_id], evaluator_steps: [similarity.revision_id, exact.revision_id] },
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const runId = res.body.evaluation.id as string;
  const worker = startWorker(t, { liveTickMs: 0 });
  return {
    similarity: similarity.id,
    exact: exact.id,
    runId,
    async run(spec) {
      const { traceId, spans } = runSpans({
        ...spec,
        attributes: { "ag.data.inputs": { correct_answer: spec.expected }, "ag.data.outputs": spec.answer },
      });
      const ingested = await t.call("POST", "/api/tracing/spans/ingest", { key, body: { spans } });
      expect(ingested.status, JSON.stringify(ingested.body)).toBe(202);
      await drainIngestQueue(t.context);
      return traceId;
    },
    async score(oldest, newest) {
      for (let at = Date.parse(oldest) + 60 * MINUTE; at <= Date.parse(newest); at += 60 * MINUTE) {
        const ticked = await t.call(
          "POST",
          `/api/admin/evaluations/runs/refresh?trigger_interval=60&trigger_datetime=${encodeURIComponent(new Date(at).toISOString())}`,
          { headers: { authorization: `Bearer ${cronSecret}` } },
        );
        expect(ticked.status, JSON.stringify(ticked.body)).toBe(200);
        expect(ticked.body.status).toBe("success");
      }
      await settled(t, key, runId, (e) => e.progress.cells_done === e.progress.cells_total);
    },
    stop: () => worker.stop(),
  };
}

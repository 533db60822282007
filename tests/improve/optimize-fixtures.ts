import { expect } from "vitest";
import { eq } from "drizzle-orm";
import { improveOptimizations } from "@/server/db/schema";
import { optimizationPass } from "@/server/improve";
import type { RecordedRequest, Script } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";
import { createEntity, workersIdle } from "../evaluations/eval-fixtures";

/** The instruction the base lacks: without it the task model gets every even `a` wrong. */
export const MISSING_RULE = "CARRY RULE: add the two numbers digit by digit and check the sum twice.";
export const BASE_SYSTEM = "You add two numbers. Answer with the sum only.";

/** 12 additions; the known class of failures is every even `a` (half of them). */
export const CASES = Array.from({ length: 12 }, (_, i) => ({
  a: i,
  b: i + 1,
  correct_answer: String(2 * i + 1),
}));

const everything = (request: RecordedRequest) => JSON.stringify(request.body ?? "");

/**
 * The scripted model of these tests, for both roles. Asked by the optimizer (its reflective
 * prompt) it proposes the base instructions plus the missing rule, only when it is shown failing
 * cases. Asked to add, it answers right unless `a` is even and the instructions lack the rule.
 */
export function improveModel(onOptimizerCall?: (request: RecordedRequest) => void) {
  return (request: RecordedRequest): Script => {
    const text = everything(request);
    if (text.includes("You improve the instructions")) {
      onOptimizerCall?.(request);
      if (!text.includes("Failing training cases")) return { kind: "reply", text: "<instructions></instructions>" };
      return {
        kind: "reply",
        text: `Here you go.\n<instructions>\n${BASE_SYSTEM}\n${MISSING_RULE}\n</instructions>`,
        usage: { input: 400, output: 40 },
      };
    }
    const numbers = [...text.matchAll(/Add (\d+) and (\d+)/g)].at(-1);
    const a = Number(numbers?.[1] ?? 0);
    const b = Number(numbers?.[2] ?? 0);
    const wrong = a % 2 === 0 && !text.includes("CARRY RULE");
    return { kind: "reply", text: String(wrong ? a + b + 100 : a + b), usage: { input: 30, output: 3 } };
  };
}

export interface Seeded {
  prompt: { id: string; revision_id: string; slug: string };
  testset: string;
  exact: string;
}

/** A prompt application whose instructions lack the rule, the additions testset and an exact match. */
export async function seedProject(t: TestApp, key: string, slug = "adder"): Promise<Seeded> {
  const prompt = await createEntity(t, key, "applications", "application", {
    slug,
    data: {
      parameters: {
        prompt: {
          messages: [
            { role: "system", content: BASE_SYSTEM },
            { role: "user", content: "Add {{a}} and {{b}}." },
          ],
          llm_config: { model: "openai/gpt-5-mini" },
        },
      },
    },
  });
  const testset = (
    await createEntity(t, key, "testsets", "testset", { slug: `${slug}-cases`, data: { testcases: CASES } })
  ).revision_id;
  const exact = (
    await createEntity(t, key, "evaluators", "evaluator", {
      slug: `${slug}-exact`,
      data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
    })
  ).revision_id;
  return { prompt, testset, exact };
}

export const startBody = (s: Seeded, extra: Record<string, unknown> = {}) => ({
  base_revision_id: s.prompt.revision_id,
  testset_revision_id: s.testset,
  evaluator_revision_ids: [s.exact],
  strategies: ["reflective", "few_shot"],
  model: "openai/gpt-5-mini",
  rounds: 2,
  candidates_per_round: 2,
  holdout_fraction: 0.34,
  seed: 7,
  ...extra,
});

export async function start(t: TestApp, key: string, body: Record<string, unknown>) {
  const res = await t.call("POST", "/api/improve/optimizations", { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.optimization as { id: string; status: string };
}

export async function read(t: TestApp, key: string, id: string) {
  const res = await t.call("GET", `/api/improve/optimizations/${id}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.optimization;
}

const ENDED = ["succeeded", "failed", "cancelled", "stopped"];

/**
 * Drives the optimization by hand: a pass of the optimizer (what its worker runs), then the
 * evaluation workers until idle, until it ends or `until` holds. Each pass is awaited, so the
 * test sees every state in order; no timers.
 */
export async function drive(
  t: TestApp,
  key: string,
  id: string,
  until: (o: any) => boolean = (o) => ENDED.includes(o.status),
  ms = 400_000,
) {
  let last: any;
  return within(
    ms,
    `optimization ${id} to reach the expected state`,
    (async () => {
      for (;;) {
        // Due at once: the pass after a wait is not held back by the poll interval.
        await t.context.db
          .update(improveOptimizations)
          .set({ nextAt: t.context.now() })
          .where(eq(improveOptimizations.id, id));
        await optimizationPass(t.context, 10, { pollMs: 0 });
        last = await read(t, key, id);
        if (until(last)) return last;
        await workersIdle(t);
      }
    })(),
    async () => `last read: ${JSON.stringify(last)}`,
  );
}

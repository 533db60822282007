import type { GateOptions } from "./gate-options";
import { ServiceClient } from "./service-client";

export interface GateResult {
  passed: boolean;
  table: string;
  reasons: string[];
}

const APPS: [string, string][] = [
  ["workflows", "workflow"],
  ["applications", "application"],
];

/**
 * The CI gate: evaluates the agent's latest revision on the testset with the evaluators (and,
 * with a baseline, the revision deployed in that environment, on the same testset), prints one
 * row per evaluator, and fails when a mean score is under --min-score or under the baseline's.
 */
export async function runGate(
  options: GateOptions,
  client = new ServiceClient(options.url, options.apiKey),
  sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
): Promise<GateResult> {
  const candidate = await client.revision(APPS, { ref: options.agent }, `agent "${options.agent}"`);
  const testset = await client.revision(
    [["testsets", "testset"]],
    { ref: options.testset },
    `testset "${options.testset}"`,
  );
  const evaluators = await Promise.all(
    options.evaluators.map((slug) =>
      client.revision([["evaluators", "evaluator"]], { ref: slug }, `evaluator "${slug}"`),
    ),
  );
  const baseline = options.baseline
    ? await client.revision(
        APPS,
        { environment_ref: { slug: options.baseline }, key: `${options.agent}.revision` },
        `the revision of "${options.agent}" deployed in ${options.baseline}`,
      )
    : undefined;
  const start = async (revisionId: string, name: string) => {
    const { evaluation } = await client.call("POST", "/api/simple/evaluations/", {
      evaluation: {
        name,
        tags: { source: "ci" },
        data: {
          testset_steps: [testset.id],
          application_steps: [revisionId],
          evaluator_steps: Object.fromEntries(evaluators.map((e) => [e.id, "auto"])),
          repeats: options.repeats,
          concurrency: { batch_size: options.concurrency, timeout: options.timeoutS },
        },
      },
    });
    return evaluation.id as string;
  };
  const runs = [await start(candidate.id, `ci ${options.agent} v${candidate.version}`)];
  if (baseline) runs.unshift(await start(baseline.id, `ci ${options.agent} ${options.baseline} v${baseline.version}`));
  for (const id of runs) {
    for (;;) {
      const { evaluation } = await client.call("GET", `/api/simple/evaluations/${id}`);
      if (["success", "errors", "failure", "cancelled"].includes(evaluation.data.status)) break;
      await sleep(500);
    }
  }
  const reasons: string[] = [];
  let scores: Record<string, number | undefined>;
  let baseScores: Record<string, number | undefined> = {};
  let statuses: string[];
  if (baseline) {
    const { comparison } = await client.call("POST", "/api/evaluations/runs/compare", { run_ids: runs });
    baseScores = comparison.runs[0].scores;
    scores = comparison.runs[1].scores;
    statuses = comparison.runs.map((r: { status: string }) => r.status);
  } else {
    scores = await meanScores(client, runs[0]);
    statuses = [(await client.call("GET", `/api/simple/evaluations/${runs[0]}`)).evaluation.data.status];
  }
  if (statuses.some((s) => s !== "success"))
    reasons.push(`a run ended ${statuses.join(" / ")}: some cells failed to execute (see the run's results)`);
  const rows = [["evaluator", "score", ...(baseline ? ["baseline", "delta"] : []), "verdict"]];
  for (const name of Object.keys(scores)) {
    const score = scores[name];
    const base = baseScores[name];
    const below = options.minScore !== undefined && (score ?? 0) < options.minScore;
    const worse = baseline !== undefined && base !== undefined && (score ?? 0) < base;
    if (below) reasons.push(`${name}: ${fmt(score)} is below --min-score ${options.minScore}`);
    if (worse) reasons.push(`${name}: ${fmt(score)} is below the ${options.baseline} baseline ${fmt(base)}`);
    rows.push([
      name,
      fmt(score),
      ...(baseline ? [fmt(base), fmt(score !== undefined && base !== undefined ? score - base : undefined)] : []),
      below || worse ? "FAIL" : "ok",
    ]);
  }
  return { passed: reasons.length === 0, table: table(rows), reasons };
}

/** Mean score per evaluator of one run, from its global metrics (score, else success rate). */
async function meanScores(client: ServiceClient, runId: string): Promise<Record<string, number | undefined>> {
  const { metrics } = await client.call("POST", "/api/evaluations/metrics/refresh", { metrics: { run_id: runId } });
  const { run } = await client.call("GET", `/api/evaluations/runs/${runId}`);
  const out: Record<string, number | undefined> = {};
  for (const step of run.data.steps.filter((s: { type: string }) => s.type === "annotation")) {
    const data = metrics[0]?.data?.[step.key] ?? {};
    const score = data["attributes.svc.data.outputs.score"]?.mean ?? data["attributes.svc.data.outputs.success"]?.mean;
    out[step.references.evaluator?.slug ?? step.key] = score;
  }
  return out;
}

const fmt = (n: number | undefined) => (n === undefined ? "-" : n.toFixed(3));

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join("  ")).join("\n");
}

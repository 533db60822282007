import type { Step } from "../model/run-data";
import { binaryStats, numericStats } from "./statistics";

export interface MetricCell {
  stepKey: string;
  status: string;
  outputs: unknown;
  latencyMs: number | null;
  tokens: number | null;
  costUsd: number | null;
}

const DURATION = "attributes.svc.metrics.duration.cumulative";
const ERRORS = "attributes.svc.metrics.errors.cumulative";
const COSTS = "attributes.svc.metrics.costs.cumulative.total";
const TOKENS = "attributes.svc.metrics.tokens.cumulative.total";
const OUTPUT = (key: string) => `attributes.svc.data.outputs.${key}`;

/**
 * Metrics of a set of cells, keyed by step then by the reference implementation's attribute paths:
 * latency (ms), tokens, cost and error count of every executed step, and for evaluators each
 * numeric or boolean output (`score`, `success`, ...). `cells` says how many cells ran and how many
 * failed: `success_rate` there is the share that ran without an execution error.
 */
export function computeMetrics(steps: Step[], cells: MetricCell[]): Record<string, Record<string, unknown>> {
  const data: Record<string, Record<string, unknown>> = {};
  for (const step of steps) {
    if (step.type === "input") continue;
    const own = cells.filter((c) => c.stepKey === step.key);
    const done = own.filter((c) => c.status === "success" || c.status === "failure");
    if (done.length === 0) continue;
    const succeeded = done.filter((c) => c.status === "success");
    const metrics: Record<string, unknown> = {
      cells: {
        count: own.length,
        success: succeeded.length,
        failure: done.length - succeeded.length,
        success_rate: succeeded.length / done.length,
      },
      [ERRORS]: numericStats(done.map((c) => (c.status === "failure" ? 1 : 0))),
    };
    const numbers = (pick: (c: MetricCell) => number | null) =>
      succeeded.map(pick).filter((v): v is number => typeof v === "number");
    if (numbers((c) => c.latencyMs).length) metrics[DURATION] = numericStats(numbers((c) => c.latencyMs));
    if (numbers((c) => c.tokens).length) metrics[TOKENS] = numericStats(numbers((c) => c.tokens));
    if (numbers((c) => c.costUsd).length) metrics[COSTS] = numericStats(numbers((c) => c.costUsd));
    if (step.type === "annotation") Object.assign(metrics, outputMetrics(succeeded.map((c) => c.outputs)));
    data[step.key] = metrics;
  }
  return data;
}

/** One metric per numeric or boolean output key of the evaluator. */
function outputMetrics(outputs: unknown[]): Record<string, unknown> {
  const numeric = new Map<string, number[]>();
  const binary = new Map<string, boolean[]>();
  const add = <T>(into: Map<string, T[]>, key: string, value: T) => {
    const values = into.get(key);
    if (values) values.push(value);
    else into.set(key, [value]);
  };
  for (const output of outputs) {
    if (!output || typeof output !== "object" || Array.isArray(output)) continue;
    for (const [key, value] of Object.entries(output)) {
      if (typeof value === "boolean") add(binary, key, value);
      else if (typeof value === "number" && Number.isFinite(value)) add(numeric, key, value);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, values] of numeric) out[OUTPUT(key)] = numericStats(values);
  for (const [key, values] of binary) out[OUTPUT(key)] = binaryStats(values);
  return out;
}

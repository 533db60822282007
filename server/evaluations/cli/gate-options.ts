import { parseArgs } from "node:util";

export interface GateOptions {
  agent: string;
  testset: string;
  evaluators: string[];
  baseline?: string;
  minScore?: number;
  repeats: number;
  concurrency: number;
  url: string;
  apiKey: string;
  timeoutS: number;
}

export class UsageError extends Error {}

export const USAGE = `usage: npm run eval -- --agent <slug> --testset <slug> --evaluator <slug> [--evaluator <slug> ...]
       [--baseline <environment>] [--min-score <0..1>] [--repeats N] [--concurrency N] [--timeout SECONDS]
       [--url http://localhost:3000] (API key in SERVICE_API_KEY, or --api-key)`;

/** The CI gate's flags; the API key comes from SERVICE_API_KEY so it stays out of CI logs and shell history. */
export function parseGateOptions(argv: string[], env: Record<string, string | undefined>): GateOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        agent: { type: "string" },
        testset: { type: "string" },
        evaluator: { type: "string", multiple: true },
        baseline: { type: "string" },
        "min-score": { type: "string" },
        repeats: { type: "string" },
        concurrency: { type: "string" },
        timeout: { type: "string" },
        url: { type: "string" },
        "api-key": { type: "string" },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const number = (name: string, raw: string | undefined, fallback?: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${raw}"`);
    return n;
  };
  if (!values.agent) throw new UsageError("--agent <slug> is required");
  if (!values.testset) throw new UsageError("--testset <slug> is required");
  if (!values.evaluator?.length) throw new UsageError("at least one --evaluator <slug> is required");
  const apiKey = values["api-key"] ?? env.SERVICE_API_KEY;
  if (!apiKey) throw new UsageError("set SERVICE_API_KEY (or --api-key) to an API key of the project");
  const minScore = number("min-score", values["min-score"]);
  if (minScore !== undefined && (minScore < 0 || minScore > 1))
    throw new UsageError("--min-score is a mean score between 0 and 1");
  return {
    agent: values.agent,
    testset: values.testset,
    evaluators: values.evaluator,
    baseline: values.baseline,
    minScore,
    repeats: number("repeats", values.repeats, 1)!,
    concurrency: number("concurrency", values.concurrency, 10)!,
    timeoutS: number("timeout", values.timeout, 1800)!,
    url: (values.url ?? env.SERVICE_URL ?? "http://localhost:3000").replace(/\/$/, ""),
    apiKey,
  };
}

import type { CaseScore } from "./evaluate";
import { shuffled, streamOf } from "./seeded";
import { readEditable, withDemonstrations, writeEditable, type BaseKind, type Editable } from "./target";
import type { Strategy } from "./wire";

/** A scored member of the pool: the base or an evaluated candidate. */
export interface PoolMember {
  id: string;
  revisionId: string;
  version: number;
  data: Record<string, unknown>;
  score: number;
  cases: Record<string, CaseScore>;
  /** The sweep configuration it was made with (parameter_sweep), to try each once per parent. */
  config?: string;
  parentId?: string;
}

/**
 * GEPA's parent selection: a member is on the front when it has the best score on at least one
 * training case; among those, one is drawn with probability proportional to how many cases it
 * leads (ties count for each member that reaches the best score). A candidate that wins a few
 * cases the others fail stays a parent even when its mean is lower.
 */
export function paretoParent(pool: PoolMember[], random: () => number): PoolMember {
  const caseIds = [...new Set(pool.flatMap((m) => Object.keys(m.cases)))];
  const leads = new Map<string, number>();
  for (const id of caseIds) {
    const best = Math.max(...pool.map((m) => m.cases[id]?.score ?? 0));
    for (const m of pool) if ((m.cases[id]?.score ?? 0) === best) leads.set(m.id, (leads.get(m.id) ?? 0) + 1);
  }
  const front = pool.filter((m) => leads.has(m.id));
  if (!front.length) return best(pool);
  const total = front.reduce((sum, m) => sum + leads.get(m.id)!, 0);
  let pick = random() * total;
  for (const m of front) {
    pick -= leads.get(m.id)!;
    if (pick < 0) return m;
  }
  return front.at(-1)!;
}

/** The highest mean; ties to the earliest made. */
export function best<T extends { score: number }>(pool: T[]): T {
  return pool.reduce((a, b) => (b.score > a.score ? b : a));
}

export interface Proposal {
  strategy: Strategy;
  parent: PoolMember;
  data: Record<string, unknown>;
  summary: string;
  config?: string;
  /** The optimizer model's spend on this proposal. */
  costUsd: number;
}

export interface ProposalContext {
  kind: BaseKind;
  seed: number;
  round: number;
  idx: number;
  pool: PoolMember[];
  /** Every candidate made so far with its sweep configuration, by parent. */
  tried: { parentId?: string; config?: string }[];
  sweepModels: string[];
  /** Failure mode examples the rewriter is shown beside the failing cases. */
  failureExamples: { input: unknown; output?: unknown; feedback?: string; expected?: unknown }[];
  /** Calls the optimizer's own model (traced and priced). */
  ask(prompt: { system: string; user: string }): Promise<{ text: string; costUsd: number }>;
}

const MAX_FAILURES_SHOWN = 8;
const DEMOS = 3;

export const REFLECT_SYSTEM = [
  "You improve the instructions (system prompt) of an LLM application from its failures.",
  "You are shown its current instructions and training cases it failed: each case's input, the output it gave,",
  "and what the evaluators said about it. Work out what the instructions are missing or get wrong, and write the",
  "complete improved instructions: keep what works, add or change what the failures call for, stay general",
  "(never copy a case's answer). Reply with the new instructions only, between <instructions> and </instructions>.",
].join(" ");

const json = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

export function reflectPrompt(current: Editable, failures: CaseScore[], examples: ProposalContext["failureExamples"]) {
  const cases = failures.map(
    (c, i) =>
      `Case ${i + 1}\nInput: ${json(c.input)}\nOutput: ${json(c.output ?? "(none)")}\nScore: ${c.score}\nFeedback:\n${c.feedback.map((f) => `- ${f}`).join("\n")}`,
  );
  const mode = examples.map(
    (e, i) =>
      `Example ${i + 1}\nInput: ${json(e.input)}\nOutput: ${json(e.output ?? "(none)")}${e.feedback ? `\nFeedback: ${e.feedback}` : ""}${e.expected !== undefined ? `\nExpected: ${json(e.expected)}` : ""}`,
  );
  return {
    system: REFLECT_SYSTEM,
    user: [
      `Current instructions:\n<instructions>\n${current.instructions}\n</instructions>`,
      `Failing training cases:\n\n${cases.join("\n\n")}`,
      ...(mode.length ? [`Examples of the failure mode being fixed:\n\n${mode.join("\n\n")}`] : []),
    ].join("\n\n"),
  };
}

export function parseInstructions(text: string): string {
  const tagged = /<instructions>([\s\S]*?)<\/instructions>/i.exec(text);
  return (tagged ? tagged[1]! : text).trim();
}

async function reflective(ctx: ProposalContext): Promise<Proposal | undefined> {
  const parent = paretoParent(ctx.pool, streamOf(ctx.seed, "parent", ctx.round, ctx.idx));
  const failures = Object.entries(parent.cases)
    .filter(([, c]) => c.score < 1)
    .sort(([a, x], [b, y]) => x.score - y.score || a.localeCompare(b))
    .slice(0, MAX_FAILURES_SHOWN)
    .map(([, c]) => c);
  if (!failures.length && !ctx.failureExamples.length) return undefined;
  const current = readEditable(ctx.kind, parent.data);
  const answer = await ctx.ask(reflectPrompt(current, failures, ctx.failureExamples));
  const instructions = parseInstructions(answer.text);
  if (!instructions || instructions === current.instructions.trim()) return undefined;
  return {
    strategy: "reflective",
    parent,
    data: writeEditable(ctx.kind, parent.data, { instructions }),
    summary: `Instructions of v${parent.version} rewritten from ${failures.length} failing training case(s)`,
    costUsd: answer.costUsd,
  };
}

function fewShot(ctx: ProposalContext): Proposal | undefined {
  const parent = paretoParent(ctx.pool, streamOf(ctx.seed, "parent", ctx.round, ctx.idx));
  const passing = Object.entries(parent.cases)
    .filter(([, c]) => c.score >= 1 && c.output !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  if (!passing.length) return undefined;
  const chosen = shuffled(passing, streamOf(ctx.seed, "demos", ctx.round, ctx.idx)).slice(0, DEMOS);
  const current = readEditable(ctx.kind, parent.data);
  const instructions = withDemonstrations(
    current.instructions,
    chosen.map(([, c]) => ({ input: c.input, output: c.output })),
  );
  if (instructions === current.instructions) return undefined;
  return {
    strategy: "few_shot",
    parent,
    data: writeEditable(ctx.kind, parent.data, { instructions }),
    summary: `${chosen.length} passing training case(s) of v${parent.version} added as demonstrations`,
    costUsd: 0,
  };
}

const TEMPERATURES = [0, 0.5, 1];

/** Model and sampling settings around the best member: each configuration tried once per parent. */
function parameterSweep(ctx: ProposalContext): Proposal | undefined {
  const parent = best(ctx.pool);
  const current = readEditable(ctx.kind, parent.data);
  const models = [...new Set([current.model, ...ctx.sweepModels])];
  const configs: { model: string; temperature?: number }[] = models.flatMap((model) =>
    ctx.kind === "application" ? TEMPERATURES.map((temperature) => ({ model, temperature })) : [{ model }],
  );
  const key = (c: { model: string; temperature?: number }) => `${c.model}@${c.temperature ?? "-"}`;
  const own = key({ model: current.model, temperature: current.sampling.temperature });
  const triedHere = new Set(ctx.tried.filter((t) => t.parentId === parent.id).map((t) => t.config));
  const next = configs.find((c) => key(c) !== own && !triedHere.has(key(c)));
  if (!next) return undefined;
  return {
    strategy: "parameter_sweep",
    parent,
    data: writeEditable(ctx.kind, parent.data, {
      model: next.model,
      ...(next.temperature !== undefined ? { sampling: { temperature: next.temperature } } : {}),
    }),
    summary: `v${parent.version} with model ${next.model}${next.temperature !== undefined ? `, temperature ${next.temperature}` : ""}`,
    config: key(next),
    costUsd: 0,
  };
}

/**
 * The slot's proposal: strategies take turns by slot (round-major), and a strategy with nothing
 * to propose (no failing case to reflect on, no passing case to show, every setting tried) hands
 * the slot to the next. Undefined when none has anything.
 */
export async function propose(ctx: ProposalContext, strategies: Strategy[], perRound: number) {
  const turn = (ctx.round - 1) * perRound + ctx.idx;
  for (let j = 0; j < strategies.length; j++) {
    const strategy = strategies[(turn + j) % strategies.length]!;
    const proposal =
      strategy === "reflective" ? await reflective(ctx) : strategy === "few_shot" ? fewShot(ctx) : parameterSweep(ctx);
    if (proposal) return proposal;
  }
  return undefined;
}

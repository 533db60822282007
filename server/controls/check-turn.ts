import type { AppContext } from "@/server/core/app-context";
import { cachedProjectPrices, type PriceOverride, type TokenUsage } from "@/server/pricing";
import { budgetWindow } from "./budget-window";
import { recordSpend, spentInWindow } from "./budget-spend";
import {
  BudgetExceededError,
  ModelNotAllowedError,
  RateLimitedError,
  rateLimitHeaders,
  type RateLimitPolicy,
} from "./control-errors";
import { controlsState } from "./controls-state";
import { refusingRule, type AllowlistRule } from "./model-allowlist";
import type { BudgetRow, ProjectRows, RateLimitRow } from "./control-rows";
import { projectControls } from "./project-controls";
import { stepCostUsd } from "./step-cost";
import type { ModelTarget, TurnSubject } from "./turn-subject";

type App = Pick<AppContext, "db" | "dbKind" | "now" | "config">;

/** What a running turn reports to the controls. */
export interface TurnControls {
  /**
   * The IETF draft's `RateLimit-Policy` and `RateLimit` fields for the answer: each limit the turn
   * counted against, with what is left (empty when no rate limit applies).
   */
  headers: Record<string, string>;
  /** Whether a budget applies to the turn: only then is each step costed (and its tools held until it is). */
  countsSpend: boolean;
  /** A model step ended; resolves true when one of the turn's budgets is now spent (the turn ends `budget_exceeded`). */
  stepEnded(
    step: ModelTarget & { deployment?: "direct" | "custom" | "bedrock" | "vertex"; usage: TokenUsage },
  ): Promise<boolean>;
  /** The turn ended: its tokens count against the tokens-per-minute limits. */
  turnEnded(tokens: number): Promise<void>;
}

const NOTHING_TO_COUNT: TurnControls = {
  headers: {},
  countsSpend: false,
  stepEnded: async () => false,
  turnEnded: async () => {},
};

/**
 * The one check every path runs before it calls a model (invoke on every transport, the OpenAI
 * door, evaluations, nested runs, evaluators): allowlists (403), budgets (402), then rate limits
 * (429), each refusal naming what refused. Returns what the turn reports as it runs. Nothing here
 * waits for the database once a project's controls and counters are in memory (README.md).
 */
export async function checkTurn(
  app: App,
  subject: TurnSubject,
  models: ModelTarget[],
  /** The turn's own read of the project's prices, when it made one: its steps are costed with it. */
  options: { prices?: Promise<PriceOverride[]> } = {},
): Promise<TurnControls> {
  const controls = await projectControls(app, subject.projectId);
  if (!controls.budgets.length && !controls.rateLimits.length && !controls.allowlists.length) return NOTHING_TO_COUNT;

  for (const target of models) {
    const model = `${target.provider}/${target.model}`;
    const rule = controls.allowlists.length ? allowlistVerdict(controls, subject, model) : undefined;
    if (rule)
      throw new ModelNotAllowedError(
        `The model ${model} is not allowed by ${rule.owner} (${rule.patterns.join(", ") || "empty: no model"}); nothing was sent`,
        model,
        rule,
      );
  }

  const budgets = controls.budgets.filter((budget) => appliesTo(budget, subject));
  const spent = await Promise.all(budgets.map((budget) => spentInWindow(app, budget)));
  budgets.forEach((budget, i) => {
    if (spent[i] >= budget.limitUsd) throw budgetExceeded(app, budget, spent[i]);
  });

  const limits = rateLimitsOf(controls, subject);
  const policies = (await Promise.all(limits.map((limit) => checkRate(app, limit)))).flat();

  if (!budgets.length && !limits.some((limit) => limit.row.tokensPerMinute))
    return { ...NOTHING_TO_COUNT, headers: rateLimitHeaders(policies) };
  return {
    headers: rateLimitHeaders(policies),
    countsSpend: budgets.length > 0,
    async stepEnded(step) {
      const prices = budgets.length ? await (options.prices ?? cachedProjectPrices(app, subject.projectId)) : [];
      const cost = stepCostUsd(step, step.usage, prices, app.now());
      const over = await recordSpend(app, budgets, cost);
      return over.length > 0;
    },
    async turnEnded(tokens) {
      if (!(tokens > 0)) return;
      const { tokens: tally } = controlsState(app);
      for (const limit of limits) if (limit.row.tokensPerMinute) tally.add(limit.key, tokens, undefined);
    },
  };
}

/** The refusal a new turn gets from a spent budget; also what a turn ended by one reports. */
export function budgetExceeded(app: Pick<AppContext, "now">, budget: BudgetRow, spentUsd: number): BudgetExceededError {
  const { resetsAt } = budgetWindow(budget.window, budget.timeZone, app.now());
  return new BudgetExceededError(
    `Budget "${budget.name}" (${ownerOf(budget.scope, budget.targetId)}, per ${budget.window} in ${budget.timeZone}) has spent $${spentUsd.toFixed(4)} of its $${budget.limitUsd} limit; it resets at ${resetsAt.toISOString()}`,
    {
      id: budget.id,
      name: budget.name,
      scope: budget.scope,
      ...(budget.targetId ? { target_id: budget.targetId } : {}),
      window: budget.window,
      time_zone: budget.timeZone,
      limit_usd: budget.limitUsd,
      spent_usd: spentUsd,
      resets_at: resetsAt.toISOString(),
    },
  );
}

function appliesTo(budget: BudgetRow, subject: TurnSubject): boolean {
  if (budget.scope === "project") return true;
  if (budget.scope === "agent") return budget.targetId !== null && budget.targetId === subject.agentId;
  return budget.targetId !== null && budget.targetId === subject.apiKeyId;
}

function ownerOf(scope: string, targetId: string | null): string {
  if (scope === "project") return "the project";
  return `${scope === "agent" ? "agent" : "API key"} ${targetId ?? "(each)"}`;
}

/** Verdicts of a project's cached rows, by API key and model: matching globs is most of the check's time. */
const verdicts = new WeakMap<ProjectRows, Map<string, AllowlistRule | null>>();
/** A key may ask for any model name: past this many verdicts for one project's rows they start again. */
const MAX_VERDICTS = 1_000;

/** The rule refusing `model` for this subject, or undefined; remembered for as long as the rows are cached. */
function allowlistVerdict(controls: ProjectRows, subject: TurnSubject, model: string): AllowlistRule | undefined {
  let known = verdicts.get(controls);
  if (!known) verdicts.set(controls, (known = new Map()));
  const key = `${subject.apiKeyId ?? ""} ${model}`;
  let verdict = known.get(key);
  if (verdict === undefined) {
    if (known.size >= MAX_VERDICTS) known.clear();
    known.set(key, (verdict = refusingRule(model, allowlistRules(controls, subject)) ?? null));
  }
  return verdict ?? undefined;
}

function allowlistRules(controls: ProjectRows, subject: TurnSubject): AllowlistRule[] {
  return controls.allowlists.flatMap((row) => {
    if (row.scope === "project") return [{ owner: "the project's model allowlist", patterns: row.patterns }];
    if (row.targetId === subject.apiKeyId)
      return [{ owner: `the model allowlist of API key ${row.targetId}`, patterns: row.patterns }];
    return [];
  });
}

interface AppliedLimit {
  row: RateLimitRow;
  /** The counter's key: one per API key or agent, whatever row set the limit. */
  key: string;
  owner: string;
}

/** For each scope, the row naming the key or agent wins over the project's row for each of them. */
function rateLimitsOf(controls: ProjectRows, subject: TurnSubject): AppliedLimit[] {
  const out: AppliedLimit[] = [];
  for (const [scope, id] of [
    ["api_key", subject.apiKeyId],
    ["agent", subject.agentId],
  ] as const) {
    if (!id) continue;
    const rows = controls.rateLimits.filter((row) => row.scope === scope);
    const row = rows.find((r) => r.targetId === id) ?? rows.find((r) => r.targetId === null);
    if (row)
      out.push({
        row,
        key: `${scope}:${id}`,
        owner: `${scope === "agent" ? "agent" : "API key"} ${id}${row.targetId ? "" : " (the project's limit for each)"}`,
      });
  }
  return out;
}

/** Counts the request against the limit and reads the tokens used; refuses over either. The policies it counted against. */
async function checkRate(app: App, limit: AppliedLimit): Promise<RateLimitPolicy[]> {
  const state = controlsState(app);
  const { requestsPerMinute: rpm, tokensPerMinute: tpm } = limit.row;
  const policy = limit.key.startsWith("agent:") ? "agent" : "api-key";
  // One after the other: each is answered from memory nearly always, and a promise pair costs more.
  const requests = rpm ? await state.requests.count(limit.key, rpm) : undefined;
  const tokens = tpm ? await state.tokens.value(limit.key) : undefined;
  const out: RateLimitPolicy[] = [];
  if (rpm && requests) {
    const resetSeconds = Math.max(1, Math.ceil(requests.resetMs / 1000));
    const counted = { name: `${policy}-requests`, quota: rpm, remaining: requests.remaining, resetSeconds };
    if (!requests.admitted)
      throw new RateLimitedError(
        `The rate limit of ${limit.owner} is ${rpm} requests per minute and it is reached; retry in ${resetSeconds} s`,
        counted,
      );
    out.push(counted);
  }
  if (tpm && tokens) {
    const resetSeconds = tokens.expiresAt
      ? Math.max(1, Math.ceil((tokens.expiresAt - app.now().getTime()) / 1000))
      : 60;
    const counted = { name: `${policy}-tokens`, quota: tpm, remaining: Math.max(0, tpm - tokens.value), resetSeconds };
    if (tokens.value >= tpm)
      throw new RateLimitedError(
        `The rate limit of ${limit.owner} is ${tpm} tokens per minute and ${tokens.value} were used; retry in ${resetSeconds} s`,
        counted,
      );
    out.push(counted);
  }
  return out;
}

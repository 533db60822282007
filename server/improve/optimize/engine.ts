import type { AppContext } from "@/server/core/app-context";
import { newId } from "@/server/core/ids";
import { logger } from "@/server/core/logger";
import type { Database } from "@/server/db";
import { DOMAIN_SPECS } from "@/server/domains";
import { emitEvent } from "@/server/events";
import {
  commitInTransaction,
  domainKeys,
  insertVariant,
  Lookup,
  type RevisionRecord,
  type Scope,
} from "@/server/versioning";
import { ensureRun, runCostSoFar, runState, scoreRun, stopRun, type CaseScore, type Testcase } from "./evaluate";
import { callOptimizerModel } from "./optimizer-model";
import { bootstrapDifference } from "./seeded";
import {
  candidatesOf,
  ensureCandidate,
  isEnded,
  requireOptimization,
  updateCandidate,
  updateOptimization,
  type CandidateRow,
  type OptimizationRow,
} from "./store";
import { best, propose, type PoolMember } from "./strategies";
import type { BaseKind } from "./target";
import { failureExamples, testcasesOf } from "./inputs";
import type { Strategy } from "./wire";

export const domainOf = (kind: BaseKind) => (kind === "workflow" ? "workflows" : "applications");

/** Where a pass left the optimization. */
export type Outcome = "waiting" | "ended" | "lost";

interface Job {
  app: AppContext;
  row: OptimizationRow;
  token: string;
  scope: Scope;
  leaseMs: number;
  base: RevisionRecord;
  train: Testcase[];
  holdout: Testcase[];
}

const usd = (n: number) => n.toFixed(6);

/**
 * One pass over an optimization this worker holds the lease of: it does everything that can be
 * done now (the base's run, each round's proposals, commits and runs, the holdout runs, the
 * result) and returns `waiting` when what remains waits on evaluation runs. Each thing made is
 * recorded the moment it exists (the candidate row before its commit, the commit and the run on
 * the row), and each step first looks for what an earlier pass made: a pass that dies anywhere is
 * resumed by the next holder of the lease, which reaches the same result (every choice is seeded).
 */
export async function advance(app: AppContext, claimed: OptimizationRow, token: string, leaseMs: number) {
  let row = claimed;
  if (row.status === "queued") {
    const now = app.now();
    if (!(await updateOptimization(app.db, row.id, { status: "running", startedAt: now }, token))) return "lost";
    row = { ...row, status: "running", startedAt: now };
  }
  const scope = { projectId: row.projectId, userId: row.createdById ?? "" };
  const lookup = new Lookup(app.db, row.projectId, domainKeys(domainOf(row.baseKind as BaseKind)));
  const testcases = await testcasesOf(app.db, row.projectId, row.testsetRevisionId);
  const byId = new Map(testcases.map((t) => [t.id, t]));
  const job: Job = {
    app,
    row,
    token,
    scope,
    leaseMs,
    base: await lookup.revision({ id: row.baseRevisionId }),
    train: row.split.train.map((id) => byId.get(id)!).filter(Boolean),
    holdout: row.split.holdout.map((id) => byId.get(id)!).filter(Boolean),
  };
  try {
    return await run(job);
  } catch (error) {
    if (error instanceof LeaseLost) return "lost";
    logger.warn({ err: error, optimization: row.id }, "optimization failed");
    await finish(job, "failed", { error: (error as Error).message.slice(0, 2000) });
    return "ended";
  }
}

class LeaseLost extends Error {}

/** Renews the lease; throws when it was lost, or the optimization was cancelled meanwhile. */
async function hold(job: Job) {
  const held = await updateOptimization(
    job.app.db,
    job.row.id,
    { leaseUntil: new Date(job.app.now().getTime() + job.leaseMs) },
    job.token,
  );
  if (!held) throw new LeaseLost();
}

async function run(job: Job): Promise<Outcome> {
  const { row } = job;
  let candidates = await candidatesOf(job.app.db, [row.id]);
  if (!candidates.some((c) => c.round === 0))
    candidates = upsert(
      candidates,
      await ensureCandidate(job.app.db, {
        id: newId(),
        optimizationId: row.id,
        projectId: row.projectId,
        round: 0,
        idx: 0,
        strategy: "base",
        summary: "The base revision",
        revisionId: job.base.id,
        variantId: job.base.variantId,
        variantSlug: job.base.variantSlug,
        version: job.base.version,
        createdAt: job.app.now(),
      }),
    );
  // Candidates are kept in memory from here, each write folded in (`upsert`): read once per pass.
  const score = async (c: CandidateRow, split: "train" | "holdout") => {
    const scored = await evaluated(job, c, split);
    candidates = upsert(candidates, scored.row);
    return scored.state === "done";
  };

  // The base's own score on the training split: the pool's first member.
  if (
    !(await score(
      candidates.find((c) => c.round === 0)!,
      "train",
    ))
  )
    return waitOrStop(job, candidates, { phase: "baseline", round: 0 });

  for (let round = 1; round <= row.rounds; round++) {
    for (let idx = 0; idx < row.candidatesPerRound; idx++) {
      if (await overCap(job, candidates)) return stopAtCap(job);
      await hold(job);
      const made = await makeCandidate(job, candidates, round, idx);
      candidates = upsert(candidates, made);
      if (made.revisionId && !made.trainRunId) candidates = upsert(candidates, await startRun(job, made, "train"));
    }
    let waiting = false;
    for (const c of candidates.filter((x) => x.round === round && x.revisionId))
      if (!(await score(c, "train"))) waiting = true;
    if (waiting) return waitOrStop(job, candidates, { phase: "round", round });
    await progress(job, candidates, { phase: "round", round }, 0);
  }

  // The winner: the best training score among the candidates (ties to the earliest made).
  const made = candidates.filter((c) => c.round > 0 && c.trainScore !== null);
  if (!made.length) throw new Error("no strategy had a candidate to propose: nothing to compare with the base");
  const winner = best(made.map((c) => ({ ...c, score: c.trainScore! })));
  if (await overCap(job, candidates)) return stopAtCap(job);
  let waiting = false;
  for (const id of [candidates.find((x) => x.round === 0)!.id, winner.id]) {
    await hold(job);
    if (
      !(await score(
        candidates.find((x) => x.id === id)!,
        "holdout",
      ))
    )
      waiting = true;
  }
  if (waiting) return waitOrStop(job, candidates, { phase: "holdout", round: row.rounds });
  await finish(job, "succeeded", { result: report(job, candidates, winner.id, "holdout") }, candidates);
  return "ended";
}

const upsert = (rows: CandidateRow[], row: CandidateRow) =>
  rows.some((r) => r.id === row.id) ? rows.map((r) => (r.id === row.id ? row : r)) : [...rows, row];

/** The pool parents are drawn from: the base and every candidate scored on the training split. */
function poolOf(job: Job, candidates: CandidateRow[], beforeRound: number): PoolMember[] {
  return candidates
    .filter((c) => c.round < beforeRound && c.trainScore !== null && c.revisionId)
    .map((c) => ({
      id: c.id,
      revisionId: c.revisionId!,
      version: c.version ?? 0,
      data: (c.round === 0 ? job.base.data : c.proposal) ?? {},
      score: c.trainScore!,
      cases: (c.trainCases ?? {}) as Record<string, CaseScore>,
      ...(c.proposal?.["improve_config"] ? { config: String(c.proposal["improve_config"]) } : {}),
      ...(c.parentId ? { parentId: c.parentId } : {}),
    }));
}

/**
 * The candidate of a slot: its row (with the proposal, before anything else exists), then its
 * commit on its own variant. A slot whose strategies had nothing to propose is recorded as such.
 */
async function makeCandidate(job: Job, candidates: CandidateRow[], round: number, idx: number) {
  let row = candidates.find((c) => c.round === round && c.idx === idx);
  if (!row) {
    const pool = poolOf(job, candidates, round);
    const proposal = await propose(
      {
        kind: job.row.baseKind as BaseKind,
        seed: job.row.seed,
        round,
        idx,
        pool,
        tried: candidates.map((c) => ({
          parentId: c.parentId ?? undefined,
          config: c.proposal?.["improve_config"] as string | undefined,
        })),
        sweepModels: job.row.sweepModels,
        failureExamples: await failureExamples(job.app.db, job.row.projectId, job.row.failureModeId),
        ask: (prompt) => {
          if (!job.row.model) throw new Error("the reflective strategy needs the optimizer's model");
          return callOptimizerModel(job.app, job.row.projectId, job.row.id, job.row.model, prompt);
        },
      },
      job.row.strategies as Strategy[],
      job.row.candidatesPerRound,
    );
    row = await ensureCandidate(job.app.db, {
      id: newId(),
      optimizationId: job.row.id,
      projectId: job.row.projectId,
      round,
      idx,
      strategy: proposal?.strategy ?? "none",
      parentId: proposal?.parent.id ?? null,
      proposal: proposal ? { ...proposal.data, ...(proposal.config ? { improve_config: proposal.config } : {}) } : null,
      summary: proposal?.summary ?? "No strategy had anything to propose",
      optimizerCostUsd: usd(proposal?.costUsd ?? 0),
      createdAt: job.app.now(),
    });
  }
  if (row.proposal && !row.revisionId) row = await commitCandidate(job, row, candidates);
  return row;
}

/** `improve/<short id>`: the candidate's own variant of the base artifact. */
export const variantSlugOf = (candidateId: string) => `improve/${candidateId.replace(/-/g, "").slice(-8)}`;

/**
 * The candidate's commit: its variant and revision in one transaction, through versioning's own
 * commit path (the domain's checks, the revision event). A variant already there is a commit an
 * earlier pass made before it could record it: its head is reused.
 */
async function commitCandidate(job: Job, row: CandidateRow, candidates: CandidateRow[]): Promise<CandidateRow> {
  const spec = DOMAIN_SPECS[domainOf(job.row.baseKind as BaseKind)];
  const slug = variantSlugOf(row.id);
  const { improve_config: _config, ...data } = row.proposal!;
  const parentRow = candidates.find((c) => c.id === row.parentId);
  const parent = parentRow ? `${parentRow.variantSlug} v${parentRow.version}` : undefined;
  const revision = await job.app.db.transaction(async (tx) => {
    const lookup = new Lookup(tx, job.row.projectId, spec.keys);
    const existing = await lookup.variant({ slug }, job.row.baseArtifactId).catch(() => undefined);
    if (existing && existing.headVersion > 0) return lookup.revisionOfVariant(existing);
    const variant =
      existing ??
      (await insertVariant(tx, job.scope, spec, job.row.baseArtifactId, {
        slug,
        name: slug,
        description: `Optimization ${job.row.id}, round ${row.round}: ${row.summary}`,
        meta: { improve_optimization_id: job.row.id, improve_candidate_id: row.id },
      }));
    const committed = await commitInTransaction(tx, job.scope, spec, {
      variantId: variant.id,
      data,
      message: `${row.strategy}: ${row.summary}${parent ? ` (from ${parent})` : ""}`,
      meta: { improve_optimization_id: job.row.id, improve_candidate_id: row.id },
    });
    return committed.revision;
  });
  return updateCandidate(job.app.db, row.id, {
    revisionId: revision.id,
    variantId: revision.variantId,
    variantSlug: revision.variantSlug,
    version: revision.version,
  });
}

async function startRun(job: Job, row: CandidateRow, split: "train" | "holdout"): Promise<CandidateRow> {
  const runId = await ensureRun(job.app.db, job.scope, {
    optimizationId: job.row.id,
    candidateId: row.id,
    split,
    name: `improve ${job.row.id.slice(-8)} · ${row.variantSlug ?? "base"} v${row.version} · ${split}`,
    revisionId: row.revisionId!,
    evaluatorRevisionIds: job.row.evaluatorRevisionIds,
    testcases: split === "train" ? job.train : job.holdout,
  });
  const updated = await updateCandidate(
    job.app.db,
    row.id,
    split === "train" ? { trainRunId: runId } : { holdoutRunId: runId },
  );
  // Cancelled meanwhile: the run just made is stopped with the others.
  const now = await requireOptimization(job.app.db, job.row.projectId, job.row.id);
  if (isEnded(now.status)) {
    await stopRun(job.app.db, job.row.projectId, runId);
    throw new LeaseLost();
  }
  return updated;
}

/** `done` once the run's scores are on the row (returned as it is now); starts the run when it is missing. */
async function evaluated(
  job: Job,
  row: CandidateRow,
  split: "train" | "holdout",
): Promise<{ state: "done" | "running"; row: CandidateRow }> {
  let current = row;
  const runOf = (r: CandidateRow) => (split === "train" ? r.trainRunId : r.holdoutRunId);
  if ((split === "train" ? current.trainScore : current.holdoutScore) !== null) return { state: "done", row };
  if (!runOf(current)) current = await startRun(job, current, split);
  const runId = runOf(current)!;
  const state = await runState(job.app.db, job.row.projectId, runId);
  if (state.stopped) throw new Error(`evaluation run ${runId} was stopped outside the optimization`);
  if (!state.finished) return { state: "running", row: current };
  const scored = await scoreRun(job.app.db, job.row.projectId, runId, split === "train" ? job.train : job.holdout);
  const updated = await updateCandidate(
    job.app.db,
    row.id,
    split === "train"
      ? { trainScore: scored.score, trainCases: scored.cases }
      : { holdoutScore: scored.score, holdoutCases: scored.cases },
  );
  return { state: "done", row: updated };
}

function spendOf(candidates: CandidateRow[], extra = 0): number {
  const cases = (c: Record<string, unknown> | null) =>
    Object.values((c ?? {}) as Record<string, CaseScore>).reduce((sum, x) => sum + (x.cost_usd ?? 0), 0);
  return candidates.reduce(
    (sum, c) => sum + Number(c.optimizerCostUsd) + cases(c.trainCases) + cases(c.holdoutCases),
    extra,
  );
}

/** What the unfinished runs have spent so far (read only when a cap is set). */
async function runningSpend(job: Job, candidates: CandidateRow[]): Promise<number> {
  let sum = 0;
  for (const c of candidates) {
    if (c.trainRunId && c.trainScore === null) sum += await runCostSoFar(job.app.db, job.row.projectId, c.trainRunId);
    if (c.holdoutRunId && c.holdoutScore === null)
      sum += await runCostSoFar(job.app.db, job.row.projectId, c.holdoutRunId);
  }
  return sum;
}

async function overCap(job: Job, candidates: CandidateRow[]): Promise<boolean> {
  if (!job.row.spendCapUsd) return false;
  return spendOf(candidates, await runningSpend(job, candidates)) >= Number(job.row.spendCapUsd);
}

async function waitOrStop(job: Job, candidates: CandidateRow[], at: { phase: string; round: number }) {
  if (await overCap(job, candidates)) return stopAtCap(job);
  await progress(job, candidates, at, job.row.spendCapUsd ? await runningSpend(job, candidates) : 0);
  return "waiting" as const;
}

/**
 * The cap is reached: runs that finished meanwhile are scored, those still going are stopped (what
 * their cells cost so far counts), and the result is the best candidate on the training split.
 */
async function stopAtCap(job: Job): Promise<Outcome> {
  let candidates = await candidatesOf(job.app.db, [job.row.id]);
  for (const c of candidates) {
    if (!c.trainRunId || c.trainScore !== null) continue;
    const state = await runState(job.app.db, job.row.projectId, c.trainRunId);
    if (state.finished) candidates = upsert(candidates, (await evaluated(job, c, "train")).row);
  }
  const partial = await runningSpend(job, candidates);
  await stopRunsOf(job.app.db, job.row.projectId, candidates);
  const made = candidates.filter((c) => c.round > 0 && c.trainScore !== null);
  const winner = made.length ? best(made.map((c) => ({ ...c, score: c.trainScore! }))) : undefined;
  const baseScored = candidates.some((c) => c.round === 0 && c.trainScore !== null);
  await finish(
    job,
    "stopped",
    {
      stopReason: "spend_cap",
      ...(winner && baseScored ? { result: report(job, candidates, winner.id, "train") } : {}),
    },
    candidates,
    partial,
  );
  return "ended";
}

export async function stopRunsOf(db: Database, projectId: string, candidates: CandidateRow[]) {
  for (const c of candidates) {
    if (c.trainRunId && c.trainScore === null) await stopRun(db, projectId, c.trainRunId);
    if (c.holdoutRunId && c.holdoutScore === null) await stopRun(db, projectId, c.holdoutRunId);
  }
}

async function progress(job: Job, candidates: CandidateRow[], at: { phase: string; round: number }, running: number) {
  // A scored run is finished: its cells are its cases times its steps (input, invocation, each
  // evaluator; one repeat). Only runs still going are asked.
  const perCase = 2 + job.row.evaluatorRevisionIds.length;
  let done = 0;
  let total = 0;
  for (const c of candidates) {
    for (const [runId, cases] of [
      [c.trainRunId, c.trainCases],
      [c.holdoutRunId, c.holdoutCases],
    ] as const) {
      if (!runId) continue;
      if (cases) {
        done += Object.keys(cases).length * perCase;
        total += Object.keys(cases).length * perCase;
        continue;
      }
      const state = await runState(job.app.db, job.row.projectId, runId);
      done += state.cellsDone;
      total += state.cellsTotal;
    }
  }
  const scored = candidates.filter((c) => c.trainScore !== null);
  const inRound = candidates.filter((c) => c.round === at.round && c.round > 0);
  const spend = spendOf(candidates, running);
  await updateOptimization(
    job.app.db,
    job.row.id,
    {
      spendUsd: usd(spend),
      progress: {
        phase: at.phase,
        round: at.round,
        rounds: job.row.rounds,
        candidate: inRound.length,
        candidates: job.row.candidatesPerRound,
        cells_done: done,
        cells_total: total,
        ...(scored.length ? { best_score: Math.max(...scored.map((c) => c.trainScore!)) } : {}),
        spend_usd: usd(spend),
      },
    },
    job.token,
  );
}

type Side = { train_score?: number; holdout_score?: number; cost_usd_per_case?: number; latency_ms_p50?: number };

function sideOf(row: CandidateRow): Side {
  const cases = Object.values({ ...(row.trainCases ?? {}), ...(row.holdoutCases ?? {}) }) as CaseScore[];
  const costs = cases.map((c) => c.cost_usd).filter((v): v is number => v !== undefined);
  const latencies = cases
    .map((c) => c.latency_ms)
    .filter((v): v is number => v !== undefined)
    .sort((a, b) => a - b);
  const mid = latencies.length >> 1;
  return {
    ...(row.trainScore !== null ? { train_score: row.trainScore } : {}),
    ...(row.holdoutScore !== null ? { holdout_score: row.holdoutScore } : {}),
    ...(costs.length ? { cost_usd_per_case: costs.reduce((a, b) => a + b, 0) / costs.length } : {}),
    ...(latencies.length
      ? { latency_ms_p50: latencies.length % 2 ? latencies[mid]! : (latencies[mid - 1]! + latencies[mid]!) / 2 }
      : {}),
  };
}

/**
 * The report: base and winner side by side, and per testcase of the split (holdout normally; the
 * training split when the spend cap stopped it before the holdout ran) the wins, losses and ties
 * with a seeded paired bootstrap interval of the mean difference.
 */
function report(job: Job, candidates: CandidateRow[], winnerId: string, split: "train" | "holdout") {
  const base = candidates.find((c) => c.round === 0)!;
  const winner = candidates.find((c) => c.id === winnerId)!;
  const casesOf = (c: CandidateRow) =>
    ((split === "holdout" ? c.holdoutCases : c.trainCases) ?? {}) as Record<string, CaseScore>;
  const ids = split === "holdout" ? job.row.split.holdout : job.row.split.train;
  const perTestcase = ids.map((id) => {
    const b = casesOf(base)[id]?.score ?? 0;
    const w = casesOf(winner)[id]?.score ?? 0;
    return { testcase_id: id, base: b, winner: w, outcome: w > b ? "win" : w < b ? "loss" : "tie" };
  });
  return {
    winner_revision_id: winner.revisionId!,
    winner_variant_slug: winner.variantSlug!,
    base: sideOf(base),
    winner: sideOf(winner),
    difference: bootstrapDifference(
      perTestcase.map((p) => ({ base: p.base, winner: p.winner })),
      job.row.seed,
    ),
    per_testcase: perTestcase,
    wins: perTestcase.filter((p) => p.outcome === "win").length,
    losses: perTestcase.filter((p) => p.outcome === "loss").length,
    ties: perTestcase.filter((p) => p.outcome === "tie").length,
    split,
  };
}

/**
 * The end, once: status, result and the outbox event in one transaction, under the lease (a
 * cancel that came first wins: the update matches nothing and no event is written).
 */
async function finish(
  job: Job,
  status: "succeeded" | "failed" | "stopped",
  fields: { result?: Record<string, unknown>; error?: string; stopReason?: string },
  /** The candidates as the caller holds them; read when it holds none. */
  known?: CandidateRow[],
  /** What stopped runs cost before they were stopped. */
  partialSpend = 0,
) {
  const candidates = known ?? (await candidatesOf(job.app.db, [job.row.id]));
  const spend = usd(spendOf(candidates, partialSpend));
  await job.app.db.transaction(async (tx) => {
    const now = job.app.now();
    const done = await updateOptimization(
      tx,
      job.row.id,
      {
        status,
        finishedAt: now,
        leaseToken: null,
        leaseUntil: null,
        nextAt: null,
        spendUsd: spend,
        progress: { ...job.row.progress, phase: "done", spend_usd: spend },
        ...(fields.result ? { result: fields.result } : {}),
        ...(fields.error ? { error: fields.error } : {}),
        ...(fields.stopReason ? { stopReason: fields.stopReason } : {}),
      },
      job.token,
    );
    if (!done) return;
    await emitEvent(tx, {
      projectId: job.row.projectId,
      type: status === "failed" ? "improve.optimizations.failed" : "improve.optimizations.finished",
      attributes: {
        optimization_id: job.row.id,
        status,
        base_revision_id: job.row.baseRevisionId,
        ...(fields.stopReason ? { stop_reason: fields.stopReason } : {}),
        ...(fields.result
          ? {
              winner_revision_id: fields.result.winner_revision_id,
              winner_variant_slug: fields.result.winner_variant_slug,
            }
          : {}),
        ...(fields.error ? { error: fields.error } : {}),
        spend_usd: spend,
      },
    });
  });
}

import { and, eq, inArray } from "drizzle-orm";
import { startCanary } from "@/server/canaries";
import { projectModelRefusal } from "@/server/controls";
import { isUuid } from "@/shared/ids";
import { ConflictError, NotFoundError, SchemaValidationError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Database } from "@/server/db";
import { improveOptimizations } from "@/server/db/schema";
import { domainKeys, Lookup, type RevisionRecord, type Scope } from "@/server/versioning";
import type { z } from "zod";
import { domainOf, stopRunsOf } from "./engine";
import { checkEvaluators, checkFailureMode, testcasesOf, testsetRevisionOf } from "./inputs";
import { splitTestcases } from "./seeded";
import {
  candidatesOf,
  findOptimization,
  insertOptimization,
  listOptimizationRows,
  requireOptimization,
  type CandidateRow,
  type OptimizationRow,
} from "./store";
import { readEditable, requireKind } from "./target";
import {
  shipOptimizationBody,
  startOptimizationBody,
  type OptimizationWire,
  type ShipOptimizationBody,
  type StartOptimizationBody,
} from "./wire";

const invalid = (path: string, message: string, detail = message) =>
  new SchemaValidationError([{ path, message }], detail);

function parse<T extends z.ZodTypeAny>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new SchemaValidationError(parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  return parsed.data;
}

/** The base revision: an agent (workflow) or a prompt application of the project, else 404. */
async function baseRevision(db: Database, projectId: string, id: string): Promise<RevisionRecord> {
  for (const domain of ["workflows", "applications"] as const) {
    try {
      return await new Lookup(db, projectId, domainKeys(domain)).revision({ id }, "base_revision_id");
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== 404 && status !== 400) throw error;
    }
  }
  throw new NotFoundError(`base revision ${id} is no workflow or application revision of this project`);
}

async function refuseModel(db: Database, projectId: string, path: string, model: string) {
  const rule = await projectModelRefusal(db, projectId, model);
  if (rule)
    throw invalid(
      path,
      `${model} is not allowed by ${rule.owner}`,
      `${path}: the model ${model} is not allowed by ${rule.owner} (${rule.patterns.join(", ") || "empty: no model"}); pick one it allows`,
    );
}

/**
 * Checks the request and queues the optimization (202): every problem is a 4xx before anything
 * is stored. The split is made here, from the seed, so it is fixed from the start. A caller that
 * names the id (an automation's firing, retried after a crash) gets the optimization it started.
 */
export async function startOptimization(
  db: Database,
  scope: Scope,
  input: z.input<typeof startOptimizationBody> | StartOptimizationBody,
  now: Date = new Date(),
  options: { id?: string } = {},
): Promise<OptimizationWire> {
  if (options.id) {
    const started = await findOptimization(db, scope.projectId, options.id);
    if (started) return optimizationToWire(started, await candidatesOf(db, [started.id]));
  }
  const row = await insertOptimization(db, {
    ...(await checkedOptimization(db, scope, input)),
    id: options.id ?? newId(),
    createdAt: now,
    nextAt: now,
  });
  return row ? optimizationToWire(row, []) : getOptimization(db, scope.projectId, options.id!);
}

/**
 * What startOptimization checks, with the same errors, for an automation that will start this
 * optimization when it fires (checked again then: a revision may be gone by then).
 */
export async function checkOptimizationStart(
  db: Database,
  scope: Scope,
  input: z.input<typeof startOptimizationBody> | StartOptimizationBody,
): Promise<void> {
  await checkedOptimization(db, scope, input);
}

/** The optimization's row as the request makes it, every problem a 4xx. */
async function checkedOptimization(
  db: Database,
  scope: Scope,
  input: z.input<typeof startOptimizationBody> | StartOptimizationBody,
) {
  const body = parse(startOptimizationBody, input);
  if (body.strategies.includes("reflective") && !body.model)
    throw invalid(
      "model",
      "the reflective strategy needs the optimizer's model",
      'The reflective strategy rewrites instructions with a model: give "model" (such as "openai/gpt-5-mini"), or leave "reflective" out of strategies',
    );
  const base = await baseRevision(db, scope.projectId, body.base_revision_id);
  const kind = requireKind(base.id, base.data);
  const testsetRevisionId = await testsetRevisionOf(db, scope.projectId, body);
  const testcases = await testcasesOf(db, scope.projectId, testsetRevisionId);
  if (testcases.length < 2)
    throw invalid(
      body.testset_id ? "testset_id" : "testset_revision_id",
      "the testset needs at least 2 testcases",
      `testset revision ${testsetRevisionId} has ${testcases.length} testcase(s): an optimization needs at least 2 (one to train on, one held out)`,
    );
  await checkEvaluators(db, scope.projectId, body.evaluator_revision_ids);
  if (body.model) await refuseModel(db, scope.projectId, "model", body.model);
  const sweepModels = [...new Set(body.sweep_models ?? [])];
  for (const [i, model] of sweepModels.entries()) await refuseModel(db, scope.projectId, `sweep_models.${i}`, model);
  if (sweepModels.length && !body.strategies.includes("parameter_sweep"))
    throw invalid("sweep_models", "sweep_models needs the parameter_sweep strategy");
  const current = readEditable(kind, base.data ?? {});
  if (body.strategies.length === 1 && body.strategies[0] === "parameter_sweep" && kind === "workflow") {
    if (!sweepModels.some((m) => m !== current.model))
      throw invalid(
        "sweep_models",
        "nothing to sweep",
        "An agent has no sampling parameters to sweep: give sweep_models (models other than the agent's own) or another strategy",
      );
  }
  if (body.failure_mode_id) await checkFailureMode(db, scope.projectId, body.failure_mode_id);
  const split = splitTestcases(
    testcases.map((t) => t.id),
    body.holdout_fraction,
    body.seed,
  );
  return {
    projectId: scope.projectId,
    createdById: scope.userId || null,
    status: "queued",
    baseKind: kind,
    baseArtifactId: base.artifactId,
    baseRevisionId: base.id,
    testsetRevisionId,
    evaluatorRevisionIds: body.evaluator_revision_ids,
    strategies: body.strategies,
    model: body.model ?? null,
    sweepModels,
    rounds: body.rounds,
    candidatesPerRound: body.candidates_per_round,
    holdoutFraction: body.holdout_fraction,
    seed: body.seed,
    spendCapUsd: body.spend_cap_usd ?? null,
    failureModeId: body.failure_mode_id ?? null,
    split,
    progress: {},
  } satisfies Omit<typeof improveOptimizations.$inferInsert, "id" | "createdAt">;
}

export async function getOptimization(db: Database, projectId: string, id: string): Promise<OptimizationWire> {
  const row = await requireOptimization(db, projectId, id);
  return optimizationToWire(row, await candidatesOf(db, [row.id]));
}

export async function listOptimizations(
  db: Database,
  projectId: string,
  options: { limit?: number; cursor?: string } = {},
): Promise<{ optimizations: OptimizationWire[]; nextCursor?: string }> {
  const limit = options.limit ?? 20;
  const rows = await listOptimizationRows(db, projectId, limit, options.cursor);
  const page = rows.slice(0, limit);
  const candidates = await candidatesOf(
    db,
    page.map((r) => r.id),
  );
  return {
    optimizations: page.map((row) =>
      optimizationToWire(
        row,
        candidates.filter((c) => c.optimizationId === row.id),
      ),
    ),
    ...(rows.length > limit ? { nextCursor: page.at(-1)!.id } : {}),
  };
}

/**
 * Cancels a queued or running optimization: its status first (a worker holding it writes
 * nothing after this: its updates are conditioned on a live status), then its evaluation runs
 * still going are stopped.
 */
export async function cancelOptimization(db: Database, scope: Scope, id: string): Promise<void> {
  const row = await requireOptimization(db, scope.projectId, id);
  const [cancelled] = await db
    .update(improveOptimizations)
    .set({ status: "cancelled", finishedAt: new Date(), leaseToken: null, leaseUntil: null, nextAt: null })
    .where(
      and(
        eq(improveOptimizations.id, row.id),
        eq(improveOptimizations.projectId, scope.projectId),
        inArray(improveOptimizations.status, ["queued", "running"]),
      ),
    )
    .returning({ id: improveOptimizations.id });
  if (!cancelled)
    throw new ConflictError(
      `optimization ${id} has ended (${row.status}); there is nothing to cancel`,
      "optimization_ended",
    );
  await stopRunsOf(db, scope.projectId, await candidatesOf(db, [row.id]));
}

/**
 * Ships the winner: a canary beside what the environment runs now (canaries' `startCanary`,
 * guarded by the monitors given and, with `min_score`, a live evaluation's score), or nothing
 * more than the variant it already is, for review.
 */
export async function shipOptimization(
  db: Database,
  scope: Scope,
  id: string,
  input: z.input<typeof shipOptimizationBody> | ShipOptimizationBody,
  now: Date = new Date(),
) {
  const body = parse(shipOptimizationBody, input);
  const row = await requireOptimization(db, scope.projectId, id);
  const winnerId = row.result?.winner_revision_id as string | undefined;
  const winner = (await candidatesOf(db, [row.id])).find((c) => c.revisionId === winnerId && c.round > 0);
  if (!winnerId || !winner)
    throw new ConflictError(
      `optimization ${id} has no winner to ship (status ${row.status}); wait until it succeeds or stops with a result`,
      "optimization_without_result",
    );
  const shipped = { revision_id: winnerId, variant_id: winner.variantId! };
  if (body.action === "review") return { action: "review" as const, ...shipped };
  if (body.min_score !== undefined && !body.min_score_evaluation_run_id)
    throw invalid(
      "min_score_evaluation_run_id",
      "min_score needs the live evaluation it applies to",
      "min_score guards a canary with a live evaluation's score on its traffic: give min_score_evaluation_run_id (a live evaluation of the project)",
    );
  const uuidLike = isUuid(body.environment);
  const canary = await startCanary(
    db,
    scope,
    {
      environment: uuidLike ? { id: body.environment } : { slug: body.environment },
      keys: domainKeys(domainOf(row.baseKind as "workflow" | "application")),
      revision: { id: winnerId },
      ...(body.key ? { key: body.key } : {}),
      weight: body.weight,
      guards: {
        ...(body.monitor_ids?.length ? { monitors: body.monitor_ids } : {}),
        ...(body.min_score !== undefined
          ? {
              min_score: {
                evaluation_run_id: body.min_score_evaluation_run_id!,
                minimum: body.min_score,
                min_results: MIN_GUARD_RESULTS,
              },
            }
          : {}),
      },
    },
    now,
  );
  return { action: "canary" as const, canary_id: canary.id, environment_id: canary.environmentId, ...shipped };
}

/** How many live results the score guard waits for before it may roll the canary back. */
const MIN_GUARD_RESULTS = 10;

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);
const num = (v: unknown) => (typeof v === "number" ? v : undefined);

export function optimizationToWire(row: OptimizationRow, candidates: CandidateRow[]): OptimizationWire {
  const progress = row.progress as Record<string, unknown>;
  const history: OptimizationWire["history"] = [];
  let bestSoFar = candidates.find((c) => c.round === 0 && c.trainScore !== null);
  for (let round = 1; round <= row.rounds; round++) {
    // A slot no strategy had anything for made no revision: the round lists what it made.
    const own = candidates.filter((c) => c.round === round && c.revisionId);
    if (!candidates.some((c) => c.round === round)) break;
    for (const c of own)
      if (c.trainScore !== null && (!bestSoFar || c.trainScore > bestSoFar.trainScore!)) bestSoFar = c;
    history.push({
      round,
      candidates: own.map((c) => {
        const parent = candidates.find((p) => p.id === c.parentId);
        return compact({
          revision_id: c.revisionId!,
          variant_slug: c.variantSlug ?? "",
          version: String(c.version ?? ""),
          strategy: c.strategy,
          train_score: c.trainScore ?? undefined,
          evaluation_run_id: c.trainRunId ?? undefined,
          summary: c.summary,
          parent_revision_id: parent?.revisionId ?? undefined,
        });
      }),
      ...(own.every((c) => c.trainScore !== null) && bestSoFar
        ? { best_revision_id: bestSoFar.revisionId!, best_score: bestSoFar.trainScore! }
        : {}),
    });
  }
  const spend = row.spendUsd;
  return compact({
    id: row.id,
    status: row.status as OptimizationWire["status"],
    stop_reason: (row.stopReason as "spend_cap" | null) ?? undefined,
    base_revision_id: row.baseRevisionId,
    base_kind: row.baseKind as OptimizationWire["base_kind"],
    base_artifact_id: row.baseArtifactId,
    testset_revision_id: row.testsetRevisionId,
    evaluator_revision_ids: row.evaluatorRevisionIds,
    strategies: row.strategies as OptimizationWire["strategies"],
    model: row.model ?? undefined,
    sweep_models: row.sweepModels.length ? row.sweepModels : undefined,
    rounds: row.rounds,
    candidates_per_round: row.candidatesPerRound,
    holdout_fraction: row.holdoutFraction,
    seed: row.seed,
    spend_cap_usd: row.spendCapUsd ?? undefined,
    failure_mode_id: row.failureModeId ?? undefined,
    split: { train: row.split.train.length, holdout: row.split.holdout.length },
    progress: compact({
      round: num(progress.round) ?? 0,
      rounds: row.rounds,
      candidate: num(progress.candidate) ?? 0,
      candidates: row.candidatesPerRound,
      cells_done: num(progress.cells_done) ?? 0,
      cells_total: num(progress.cells_total) ?? 0,
      best_score: num(progress.best_score),
      spend_usd: typeof progress.spend_usd === "string" ? progress.spend_usd : spend,
      phase:
        (progress.phase as OptimizationWire["progress"]["phase"]) ?? (row.status === "queued" ? "queued" : undefined),
    }),
    history,
    result: (row.result as OptimizationWire["result"]) ?? undefined,
    spend_usd: spend,
    error: row.error ?? undefined,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  }) as OptimizationWire;
}

/** Nulls and undefined left out, as every wire record of the service does. */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as T;
}

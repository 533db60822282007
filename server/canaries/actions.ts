import { eq } from "drizzle-orm";
import { BadRequestError, ConflictError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Database, Transaction } from "@/server/db";
import { canaries, type CanaryGuards } from "@/server/db/schema";
import { environmentsSpec, revisionIdOf, type SplitMap } from "@/server/domains";
import {
  commitInTransaction,
  domainKeys,
  domainOfSingular,
  lockVariantRow,
  Lookup,
  revisionNames,
  type DomainKeys,
  type Ref,
  type RevisionRecord,
  type Scope,
} from "@/server/versioning";
import { auditCanary } from "./audit";
import { lockRunningCanary, runningCanaryOf, type CanaryRow } from "./store";
import { checkMonitorGuard } from "./monitor-guard";
import { checkScoreGuard } from "./score-guard";

export interface StartCanaryRequest {
  environment: Ref;
  /** The candidate's family (workflows, applications, evaluators) and revision. */
  keys: DomainKeys;
  revision: Ref;
  /** Default `<artifact slug>.revision`. */
  key?: string;
  /** The candidate's first share, percent. */
  weight: number;
  /** The weights a ramp moves through after `weight`, one every `intervalMinutes`; 100 promotes. */
  ramp?: { steps: number[]; intervalMinutes: number };
  guards?: CanaryGuards;
}

const ENV = environmentsSpec.keys;
const rest = (weight: number) => Math.round((100 - weight) * 100) / 100;

/**
 * Starts a canary: the candidate takes `weight` percent of the key beside the revision deployed
 * there now (the baseline), as one environment commit (a deploy in its history, with its event;
 * the production deploy rule judges the candidate). The key must have a revision deployed and no
 * split yet.
 */
export async function startCanary(
  db: Database,
  scope: Scope,
  request: StartCanaryRequest,
  now: Date,
): Promise<CanaryRow> {
  checkWeight(request.weight, "weight");
  request.ramp?.steps.forEach((w, i) => checkWeight(w, `ramp.steps[${i}]`, true));
  if (request.ramp && request.ramp.steps.some((w, i) => w <= (i ? request.ramp!.steps[i - 1]! : request.weight)))
    throw new BadRequestError(
      "ramp.steps must rise above weight and each other, such as [25, 50, 100]",
      "invalid_ramp",
    );
  return db.transaction(async (tx) => {
    const candidate = await new Lookup(tx, scope.projectId, request.keys).revision(
      request.revision,
      request.keys.revisionRef,
    );
    const envLookup = new Lookup(tx, scope.projectId, ENV);
    const environment = await envLookup.artifact(request.environment, "environment_ref");
    const variant = await envLookup.defaultVariant(environment);
    // Under the variant's lock, as the commit will be: the baseline read is the state the split replaces.
    await lockVariantRow(tx, variant.id);
    const key = request.key ?? `${candidate.artifactSlug}.revision`;
    const current = variant.headVersion ? await envLookup.revisionOfVariant(variant, undefined) : undefined;
    const entry = (current?.data?.references as Record<string, Record<string, unknown>> | undefined)?.[key];
    const baselineId = revisionIdOf(entry);
    if (!baselineId)
      throw new ConflictError(
        `environment "${environment.slug}" has no revision deployed under key "${key}": deploy one first, then start a canary beside it`,
        "nothing_deployed",
      );
    if (baselineId === candidate.id)
      throw new BadRequestError(
        `${request.keys.revision} ${candidate.id} is already what "${key}" runs`,
        "canary_is_baseline",
      );
    if (await runningCanaryOf(tx, variant.id, key))
      throw new ConflictError(`a canary is already running on "${key}" in "${environment.slug}"`, "canary_running");
    if ((current?.data?.splits as SplitMap | undefined)?.[key])
      throw new ConflictError(
        `"${key}" in "${environment.slug}" is already split; end that split first`,
        "already_split",
      );
    const row: CanaryRow = {
      id: newId(),
      projectId: scope.projectId,
      environmentId: environment.id,
      environmentVariantId: variant.id,
      key,
      revisionKey: request.keys.revision,
      baselineRevisionId: baselineId,
      candidateRevisionId: candidate.id,
      status: "running",
      weight: request.weight,
      steps: request.ramp?.steps ?? [],
      stepIndex: 0,
      stepIntervalMs: request.ramp ? request.ramp.intervalMinutes * 60_000 : null,
      nextStepAt: request.ramp ? new Date(now.getTime() + request.ramp.intervalMinutes * 60_000) : null,
      guards: request.guards ?? {},
      reason: null,
      startedAt: now,
      endedAt: null,
      createdById: scope.userId,
    };
    if (request.guards?.min_score)
      await checkScoreGuard(tx, scope.projectId, request.guards.min_score.evaluation_run_id);
    if (request.guards?.monitors?.length) await checkMonitorGuard(tx, scope.projectId, request.guards.monitors);
    const names = await revisionNames(tx, candidate);
    await commitSplit(
      tx,
      scope,
      row,
      request.weight,
      `Canary ${names.artifact} v${names.version} at ${request.weight}% of ${environment.name || environment.slug}`,
    );
    await tx.insert(canaries).values(row);
    await auditCanary(tx, "canary.started", undefined, row, now);
    return row;
  });
}

/**
 * Moves the candidate to `weight` (else the ramp's next step); 100 promotes. A ramp step of the
 * worker passes `byWorker`, which also schedules the step after.
 */
export async function rampCanary(
  db: Database,
  scope: Scope,
  id: string,
  weight: number | undefined,
  now: Date,
): Promise<CanaryRow> {
  return db.transaction(async (tx) =>
    rampLocked(tx, scope, await lockRunningCanary(tx, scope.projectId, id), weight, now),
  );
}

export async function rampLocked(
  tx: Transaction,
  scope: Scope,
  row: CanaryRow,
  weight: number | undefined,
  now: Date,
): Promise<CanaryRow> {
  const scheduled = weight === undefined;
  const next = weight ?? row.steps[row.stepIndex];
  if (next === undefined)
    throw new ConflictError(`canary ${row.id} has no ramp step left; promote it or roll it back`, "ramp_done");
  checkWeight(next, "weight", true);
  if (next >= 100) return promoteLocked(tx, scope, row, scheduled ? "the ramp reached 100%" : "ramped to 100%", now);
  const names = await candidateNames(tx, scope, row);
  await commitSplit(tx, scope, row, next, `Ramp canary ${names.artifact} v${names.version} to ${next}%`);
  // A step taken by hand moves the ramp past every step it reached; the schedule goes on from there.
  let stepIndex = row.stepIndex;
  while (stepIndex < row.steps.length && row.steps[stepIndex]! <= next) stepIndex++;
  const nextStepAt =
    row.stepIntervalMs && stepIndex < row.steps.length ? new Date(now.getTime() + row.stepIntervalMs) : null;
  const updated = await update(tx, row, { weight: next, stepIndex, nextStepAt });
  await auditCanary(tx, "canary.ramped", row, updated, now);
  return updated;
}

/** The candidate takes all the traffic; a `reason` given by hand goes into the history. */
export async function promoteCanary(
  db: Database,
  scope: Scope,
  id: string,
  now: Date,
  reason?: string,
): Promise<CanaryRow> {
  return db.transaction(async (tx) =>
    promoteLocked(tx, scope, await lockRunningCanary(tx, scope.projectId, id), reason ?? "promoted", now, reason),
  );
}

async function promoteLocked(tx: Transaction, scope: Scope, row: CanaryRow, reason: string, now: Date, why?: string) {
  const names = await candidateNames(tx, scope, row);
  await commitInTransaction(tx, scope, environmentsSpec, {
    variantId: row.environmentVariantId,
    delta: { set: { [row.key]: { [row.revisionKey]: { id: row.candidateRevisionId } } }, splits: { [row.key]: null } },
    message: `Promote canary ${names.artifact} v${names.version} to all traffic${why ? `: ${why}` : ""}`,
  });
  const updated = await update(tx, row, { status: "promoted", weight: 100, reason, endedAt: now, nextStepAt: null });
  await auditCanary(tx, "canary.promoted", row, updated, now);
  return updated;
}

/** Ends the split: the baseline takes all the traffic again; `reason` goes into the history. */
export async function rollbackCanary(
  db: Database,
  scope: Scope,
  id: string,
  reason: string,
  now: Date,
): Promise<CanaryRow> {
  return db.transaction(async (tx) =>
    rollbackLocked(tx, scope, await lockRunningCanary(tx, scope.projectId, id), reason, now),
  );
}

export async function rollbackLocked(tx: Transaction, scope: Scope, row: CanaryRow, reason: string, now: Date) {
  const names = await candidateNames(tx, scope, row);
  await commitInTransaction(tx, scope, environmentsSpec, {
    variantId: row.environmentVariantId,
    delta: { splits: { [row.key]: null } },
    message: `Roll back canary ${names.artifact} v${names.version}: ${reason}`,
  });
  const updated = await update(tx, row, { status: "rolled_back", weight: 0, reason, endedAt: now, nextStepAt: null });
  await auditCanary(tx, "canary.rolled_back", row, updated, now);
  return updated;
}

async function commitSplit(tx: Transaction, scope: Scope, row: CanaryRow, weight: number, message: string) {
  // The candidate first: its bucket range grows from 0 as it ramps, so keys on it stay on it.
  await commitInTransaction(tx, scope, environmentsSpec, {
    variantId: row.environmentVariantId,
    delta: {
      splits: {
        [row.key]: [
          { weight, [row.revisionKey]: { id: row.candidateRevisionId } },
          { weight: rest(weight), [row.revisionKey]: { id: row.baselineRevisionId } },
        ],
      },
    },
    message,
  });
}

async function candidateNames(tx: Transaction, scope: Scope, row: CanaryRow) {
  const keys = keysOf(row);
  const candidate: RevisionRecord = await new Lookup(tx, scope.projectId, keys).revision({
    id: row.candidateRevisionId,
  });
  return revisionNames(tx, candidate);
}

export function keysOf(row: Pick<CanaryRow, "revisionKey">): DomainKeys {
  return domainKeys(domainOfSingular(row.revisionKey.replace(/_revision$/, ""))!);
}

async function update(tx: Transaction, row: CanaryRow, changes: Partial<CanaryRow>): Promise<CanaryRow> {
  const [updated] = await tx.update(canaries).set(changes).where(eq(canaries.id, row.id)).returning();
  return updated!;
}

function checkWeight(weight: number, field: string, allowFull = false) {
  const max = allowFull ? 100 : 99.99;
  if (!(weight > 0) || weight > max || Math.abs(Math.round(weight * 100) - weight * 100) > 1e-6)
    throw new BadRequestError(
      `${field} must be a percentage above 0 and ${allowFull ? "at most 100" : "below 100"}, in steps of 0.01`,
      "invalid_weight",
    );
}

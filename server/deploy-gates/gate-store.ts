import { eq } from "drizzle-orm";
import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { recordAudit } from "@/server/audit";
import { deployGates } from "@/server/db/schema";
import { artifactNames } from "@/server/versioning";

/** The environment a deploy gate guards. */
export const GATED_ENVIRONMENT = "production";

export interface DeployGate {
  testset: { id: string; slug?: string; name?: string };
  evaluator: { id: string; slug?: string; name?: string };
  minScore: number;
  updatedAt: Date;
  updatedById: string | null;
}

export interface DeployGateInput {
  testsetId: string;
  evaluatorId: string;
  minScore: number;
}

/** The project's gate with the slugs and names of its testset and evaluator; undefined when none is set. */
export async function getDeployGate(db: Executor, projectId: string): Promise<DeployGate | undefined> {
  const [row] = await db.select().from(deployGates).where(eq(deployGates.projectId, projectId));
  if (!row) return undefined;
  const named = await artifactNames(db, projectId, [row.testsetId, row.evaluatorId]);
  const name = (id: string) => {
    const found = named.find((a) => a.id === id);
    return { id, slug: found?.slug, name: found?.name };
  };
  return {
    testset: name(row.testsetId),
    evaluator: name(row.evaluatorId),
    minScore: row.minScore,
    updatedAt: row.updatedAt,
    updatedById: row.updatedById,
  };
}

async function assertArtifact(db: Executor, projectId: string, domain: string, id: string, field: string) {
  const [found] = await artifactNames(db, projectId, [id], domain);
  if (!found)
    throw new BadRequestError(`${field}: no ${domain.slice(0, -1)} ${id} in this project`, "unknown_reference");
}

/** Sets (or replaces) the project's gate; the testset and evaluator must be the project's own. */
export async function setDeployGate(
  db: Executor,
  scope: { projectId: string; userId: string },
  input: DeployGateInput,
): Promise<DeployGate> {
  if (!Number.isFinite(input.minScore))
    throw new BadRequestError("minScore must be a finite number", "invalid_min_score");
  await assertArtifact(db, scope.projectId, "testsets", input.testsetId, "testsetId");
  await assertArtifact(db, scope.projectId, "evaluators", input.evaluatorId, "evaluatorId");
  const values = { ...input, updatedAt: new Date(), updatedById: scope.userId };
  return db.transaction(async (tx) => {
    const before = await getDeployGate(tx, scope.projectId);
    await tx
      .insert(deployGates)
      .values({ projectId: scope.projectId, ...values })
      .onConflictDoUpdate({ target: deployGates.projectId, set: values });
    const after = (await getDeployGate(tx, scope.projectId))!;
    await recordAudit(tx, {
      projectId: scope.projectId,
      action: "deploy_rule.set",
      targetType: "deploy_rule",
      targetId: GATED_ENVIRONMENT,
      before: before && auditView(before),
      after: auditView(after),
    });
    return after;
  });
}

/** Removes the gate: production takes any deploy again. */
export async function clearDeployGate(db: Executor, projectId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await getDeployGate(tx, projectId);
    await tx.delete(deployGates).where(eq(deployGates.projectId, projectId));
    if (before) {
      await recordAudit(tx, {
        projectId,
        action: "deploy_rule.cleared",
        targetType: "deploy_rule",
        targetId: GATED_ENVIRONMENT,
        before: auditView(before),
      });
    }
  });
}

function auditView(gate: DeployGate) {
  return { environment: GATED_ENVIRONMENT, testset: gate.testset, evaluator: gate.evaluator, min_score: gate.minScore };
}

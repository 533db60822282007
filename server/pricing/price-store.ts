import { and, asc, eq, sql } from "drizzle-orm";
import { recordAudit } from "@/server/audit";
import { NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { modelPrices } from "@/server/db/schema";
import { forgetPrices } from "./held-prices";
import type { PriceOverride } from "./price-override";
import type { PriceOverrideInput, PriceOverrideWire } from "./wire";

type Row = typeof modelPrices.$inferSelect;

/** The project's own prices, the form `costOf` takes, read now (batch paths; a turn reads `cachedProjectPrices`). */
export async function projectPrices(db: Executor, projectId: string): Promise<PriceOverride[]> {
  return db
    .select({ provider: modelPrices.provider, model: modelPrices.model, prices: modelPrices.prices })
    .from(modelPrices)
    .where(eq(modelPrices.projectId, projectId));
}

export async function listPriceOverrides(db: Executor, projectId: string): Promise<PriceOverrideWire[]> {
  const rows = await db
    .select()
    .from(modelPrices)
    .where(eq(modelPrices.projectId, projectId))
    .orderBy(asc(modelPrices.provider), asc(modelPrices.model));
  return rows.map(toWire);
}

/**
 * Sets the project's price for a provider and model (replacing one set before, whatever its case).
 * It applies to what is costed from now on: spans and runs already costed keep their price.
 */
export async function setPriceOverride(
  db: Executor,
  scope: { projectId: string; userId?: string },
  input: PriceOverrideInput,
): Promise<PriceOverrideWire> {
  const values = {
    provider: input.provider,
    model: input.model,
    prices: input.usd_per_million_tokens,
    updatedAt: new Date(),
    updatedById: scope.userId ?? null,
  };
  const same = and(
    eq(modelPrices.projectId, scope.projectId),
    sql`lower(${modelPrices.provider}) = lower(${input.provider})`,
    sql`lower(${modelPrices.model}) = lower(${input.model})`,
  );
  // Update, else insert; an insert that lost a race to the same model's insert updates that row.
  // The audit entry commits with the change, holding the price before and after.
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(modelPrices).where(same);
    const update = async () => (await tx.update(modelPrices).set(values).where(same).returning()).at(0);
    const written =
      (await update()) ??
      (await tx
        .insert(modelPrices)
        .values({ id: newId(), projectId: scope.projectId, ...values })
        .onConflictDoNothing()
        .returning()
        .then((rows) => rows.at(0))) ??
      (await update())!;
    await recordAudit(tx, {
      projectId: scope.projectId,
      action: before ? "model_price.updated" : "model_price.created",
      targetType: "model_price",
      targetId: written.id,
      before: before && auditView(before),
      after: auditView(written),
    });
    return written;
  });
  forgetPrices(db, scope.projectId);
  return toWire(row);
}

export async function deletePriceOverride(db: Executor, projectId: string, id: string): Promise<PriceOverrideWire> {
  const row = await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(modelPrices)
      .where(and(eq(modelPrices.projectId, projectId), eq(modelPrices.id, id)))
      .returning();
    if (gone)
      await recordAudit(tx, {
        projectId,
        action: "model_price.deleted",
        targetType: "model_price",
        targetId: gone.id,
        before: auditView(gone),
      });
    return gone;
  });
  if (!row) throw new NotFoundError(`No price ${id} in this project; see GET /api/pricing/prices`, "price_not_found");
  forgetPrices(db, projectId);
  return toWire(row);
}

/** What the audit log keeps of a price: the model it is for (its name in the log) and the prices. */
const auditView = (row: Row) => ({
  name: `${row.provider}/${row.model}`,
  usd_per_million_tokens: row.prices,
});

function toWire(row: Row): PriceOverrideWire {
  return {
    id: row.id,
    provider: row.provider,
    model: row.model,
    usd_per_million_tokens: row.prices as PriceOverrideWire["usd_per_million_tokens"],
    updated_at: row.updatedAt.toISOString(),
    ...(row.updatedById ? { updated_by_id: row.updatedById } : {}),
  };
}

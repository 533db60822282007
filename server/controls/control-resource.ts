import { and, asc, eq } from "drizzle-orm";
import type { PgTableWithColumns } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { AppContext } from "@/server/core/app-context";
import { ConflictError, NotFoundError, type ErrorCodeOf } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { isUniqueViolation, type Transaction } from "@/server/db";
import { recordAudit } from "@/server/audit";
import { announceControlsChange } from "./controls-cache";
import { forgetControls } from "./project-controls";

type App = Pick<AppContext, "db" | "dbKind" | "now" | "config">;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one store over four tables whose columns differ; each resource types its own rows
type ControlTable = PgTableWithColumns<any>;

/**
 * One kind of control (budgets, rate limits, allowlists, aliases) as a project-scoped resource:
 * its table, the request body, the stored values a body becomes (checked against the project),
 * and the wire form. The store and the REST and tRPC doors are written once over it.
 */
export interface ControlResource<I, R extends { id: string }, W> {
  /** URL segment: `/api/controls/<path>/`. */
  path: string;
  entity: string;
  /** The 404 code for an id that names none (`<entity>_not_found`). */
  notFoundCode: ErrorCodeOf<404>;
  entities: string;
  /** What a person calls one, in messages. */
  label: string;
  table: ControlTable;
  input: z.ZodType<I>;
  wire: z.ZodType<W>;
  values(app: App, projectId: string, input: I): Promise<Record<string, unknown>>;
  toWire(app: App, rows: R[]): Promise<W[]>;
  /** The 409 detail when the body's unique key is taken. */
  conflict(input: I): string;
  /** What else a new row needs, written in its creation's transaction. */
  created?(tx: Transaction, app: App, row: R): Promise<void>;
}

export async function listControls<I, R extends { id: string }, W>(
  app: App,
  resource: ControlResource<I, R, W>,
  projectId: string,
): Promise<W[]> {
  const { table } = resource;
  const rows = (await app.db
    .select()
    .from(table)
    .where(eq(table.projectId, projectId))
    .orderBy(asc(table.createdAt), asc(table.id))) as R[];
  return resource.toWire(app, rows);
}

export async function getControl<I, R extends { id: string }, W>(
  app: App,
  resource: ControlResource<I, R, W>,
  projectId: string,
  id: string,
): Promise<W> {
  const { table } = resource;
  const rows = (await app.db
    .select()
    .from(table)
    .where(and(eq(table.id, id), eq(table.projectId, projectId)))) as R[];
  if (!rows.length) throw new NotFoundError(`No ${resource.label} ${id} in this project`, resource.notFoundCode);
  return (await resource.toWire(app, rows))[0];
}

export async function createControl<I, R extends { id: string }, W>(
  app: App,
  resource: ControlResource<I, R, W>,
  projectId: string,
  input: I,
): Promise<W> {
  const values = await resource.values(app, projectId, input);
  const now = app.now();
  const rows = (await unique(resource, input, () =>
    app.db.transaction(async (tx) => {
      const inserted = (await tx
        .insert(resource.table)
        .values({ id: newId(), projectId, ...values, createdAt: now, updatedAt: now })
        .returning()) as R[];
      // The row, not the wire: the wire reads spend through app.db, outside this transaction.
      const after = inserted[0];
      await resource.created?.(tx, app, after);
      await recordAudit(tx, {
        projectId,
        ...auditTarget(resource, inserted[0].id),
        action: `${resource.entity}.created`,
        after,
      });
      await announceControlsChange(tx, projectId);
      return inserted;
    }),
  )) as R[];
  forgetControls(app, projectId);
  return (await resource.toWire(app, rows))[0];
}

export async function updateControl<I, R extends { id: string }, W>(
  app: App,
  resource: ControlResource<I, R, W>,
  projectId: string,
  id: string,
  input: I,
): Promise<W> {
  const { table } = resource;
  const values = await resource.values(app, projectId, input);
  const before = await getControl(app, resource, projectId, id);
  const rows = (await unique(resource, input, () =>
    app.db.transaction(async (tx) => {
      const updated = (await tx
        .update(table)
        .set({ ...values, updatedAt: app.now() })
        .where(and(eq(table.id, id), eq(table.projectId, projectId)))
        .returning()) as R[];
      if (updated.length) {
        const after = updated[0];
        await recordAudit(tx, {
          projectId,
          ...auditTarget(resource, id),
          action: `${resource.entity}.updated`,
          before,
          after,
        });
        await announceControlsChange(tx, projectId);
      }
      return updated;
    }),
  )) as R[];
  if (!rows.length) throw new NotFoundError(`No ${resource.label} ${id} in this project`, resource.notFoundCode);
  forgetControls(app, projectId);
  return (await resource.toWire(app, rows))[0];
}

export async function deleteControl<I, R extends { id: string }, W>(
  app: App,
  resource: ControlResource<I, R, W>,
  projectId: string,
  id: string,
): Promise<W> {
  const { table } = resource;
  const before = await getControl(app, resource, projectId, id);
  await app.db.transaction(async (tx) => {
    await tx.delete(table).where(and(eq(table.id, id), eq(table.projectId, projectId)));
    await recordAudit(tx, { projectId, ...auditTarget(resource, id), action: `${resource.entity}.deleted`, before });
    await announceControlsChange(tx, projectId);
  });
  forgetControls(app, projectId);
  return before;
}

function auditTarget(resource: { entity: string }, id: string) {
  return { targetType: resource.entity, targetId: id };
}

async function unique<T>(
  resource: { conflict(input: never): string },
  input: unknown,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(resource.conflict(input as never), "duplicate");
    throw error;
  }
}

import { and, desc, eq } from "drizzle-orm";
import { BadRequestError, isAppError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { analyticsDashboards } from "@/server/db/schema";
import { queryAnalytics } from "../query-analytics";
import { chartQuery, type DashboardInput } from "./dashboard-input";

export type DashboardRow = typeof analyticsDashboards.$inferSelect;

/**
 * Each chart's query runs once over its last hour before the dashboard is stored: a filter the
 * analytics API would refuse is refused now, naming the chart, not later on the page.
 */
async function checkCharts(db: Executor, projectId: string, input: DashboardInput, now: Date): Promise<void> {
  for (const [i, chart] of input.charts.entries()) {
    try {
      await queryAnalytics(db, projectId, chartQuery({ ...chart, range: "1h" }, now), { now });
    } catch (error) {
      if (isAppError(error) && error.status === 400)
        throw new BadRequestError(`charts[${i}] ("${chart.title}"): ${error.message}`, "invalid_filtering");
      throw error;
    }
  }
}

export async function createDashboard(
  db: Executor,
  principal: { projectId: string; userId?: string | null },
  input: DashboardInput,
  now: Date,
): Promise<DashboardRow> {
  await checkCharts(db, principal.projectId, input, now);
  const [row] = await db
    .insert(analyticsDashboards)
    .values({
      id: newId(),
      projectId: principal.projectId,
      name: input.name,
      charts: input.charts,
      createdBy: principal.userId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row;
}

export async function listDashboards(db: Executor, projectId: string): Promise<DashboardRow[]> {
  return db
    .select()
    .from(analyticsDashboards)
    .where(eq(analyticsDashboards.projectId, projectId))
    .orderBy(desc(analyticsDashboards.createdAt));
}

export async function getDashboard(db: Executor, projectId: string, id: string): Promise<DashboardRow> {
  const [row] = await db
    .select()
    .from(analyticsDashboards)
    .where(and(eq(analyticsDashboards.projectId, projectId), eq(analyticsDashboards.id, id)));
  if (!row) throw notFound(id);
  return row;
}

export async function replaceDashboard(
  db: Executor,
  projectId: string,
  id: string,
  input: DashboardInput,
  now: Date,
): Promise<DashboardRow> {
  await checkCharts(db, projectId, input, now);
  const [row] = await db
    .update(analyticsDashboards)
    .set({ name: input.name, charts: input.charts, updatedAt: now })
    .where(and(eq(analyticsDashboards.projectId, projectId), eq(analyticsDashboards.id, id)))
    .returning();
  if (!row) throw notFound(id);
  return row;
}

export async function deleteDashboard(db: Executor, projectId: string, id: string): Promise<void> {
  const rows = await db
    .delete(analyticsDashboards)
    .where(and(eq(analyticsDashboards.projectId, projectId), eq(analyticsDashboards.id, id)))
    .returning({ id: analyticsDashboards.id });
  if (!rows.length) throw notFound(id);
}

const notFound = (id: string) => new NotFoundError(`No dashboard ${id} in this project.`, "dashboard_not_found");

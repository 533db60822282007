import { z } from "zod";
import { dashboardChartSchema } from "./dashboard-input";
import type { DashboardRow } from "./dashboard-store";

export const dashboardWire = z.strictObject({
  id: z.string(),
  name: z.string(),
  charts: z.array(dashboardChartSchema),
  created_by: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});

export function dashboardToWire(row: DashboardRow) {
  return {
    id: row.id,
    name: row.name,
    charts: dashboardChartSchema.array().parse(row.charts),
    ...(row.createdBy ? { created_by: row.createdBy } : {}),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

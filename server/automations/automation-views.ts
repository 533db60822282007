import type { AppContext } from "@/server/core/app-context";
import { getAutomation, listAutomations, type AutomationRow } from "./automation-store";
import { lastDeliveries } from "./delivery-store";
import { automationToWire, type AutomationWire } from "./wire";

/** The list as the playground and the API show it: each automation with its newest delivery. */
export async function automationViews(
  app: AppContext,
  projectId: string,
  filter: Parameters<typeof listAutomations>[2] = {},
): Promise<AutomationWire[]> {
  const rows = await listAutomations(app.db, projectId, filter);
  return withLast(app, projectId, rows);
}

export async function automationView(app: AppContext, projectId: string, id: string): Promise<AutomationWire> {
  const [view] = await withLast(app, projectId, [await getAutomation(app.db, projectId, id)]);
  return view;
}

async function withLast(app: AppContext, projectId: string, rows: AutomationRow[]): Promise<AutomationWire[]> {
  const last = await lastDeliveries(
    app.db,
    projectId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => automationToWire(row, { last: last.get(row.id) }));
}

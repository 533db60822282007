import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { agentRuns } from "@/server/db/schema";
import { getAutomation, listAutomations, type AutomationRow } from "./automation-store";
import { lastDeliveries, listDeliveries } from "./delivery-store";
import { automationToWire, deliveryToWire, type AutomationWire, type DeliveryWire } from "./wire";

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

export interface DeliveryView extends DeliveryWire {
  /** The started run's status and the agent and variant it ran (where the playground opens its session). */
  run?: { status: string; agent_id?: string; variant_id?: string };
}

/** An automation's newest deliveries, each with what the playground needs to open its run. */
export async function deliveryViews(app: AppContext, projectId: string, automationId: string): Promise<DeliveryView[]> {
  const rows = await listDeliveries(app.db, projectId, { automationId, limit: 50 });
  const runIds = rows.flatMap((row) => (row.status === "started" && row.runId ? [row.runId] : []));
  const runs = runIds.length
    ? await app.db
        .select({ id: agentRuns.id, status: agentRuns.status, agent: agentRuns.agent })
        .from(agentRuns)
        .where(and(eq(agentRuns.projectId, projectId), inArray(agentRuns.id, runIds)))
    : [];
  const byId = new Map(runs.map((run) => [run.id, run]));
  return rows.map((row) => {
    const run = row.runId ? byId.get(row.runId) : undefined;
    const refs = (run?.agent as { references?: Record<string, { id?: string }> } | undefined)?.references;
    return {
      ...deliveryToWire(row),
      ...(run && row.status === "started"
        ? { run: { status: run.status, agent_id: refs?.workflow?.id, variant_id: refs?.workflow_variant?.id } }
        : {}),
    };
  });
}

import { runStates } from "@/server/agent-runs";
import type { AppContext } from "@/server/core/app-context";
import { getAutomation, listAutomations, type AutomationRow } from "./automation-store";
import { lastFirings, queryFirings } from "./firing-store";
import { automationToWire, firingToWire, type AutomationWire, type FiringWire } from "./wire";

/** The list as the playground and the API show it: each automation with its newest firing (`last_delivery`). */
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
  const last = await lastFirings(
    app.db,
    projectId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => automationToWire(row, { last: last.get(row.id) }));
}

export interface FiringView extends FiringWire {
  /** The started run's status and the agent, variant and revision it ran (where the playground opens its session). */
  run?: { status: string; agent_id?: string; variant_id?: string; revision_id?: string };
}

/** An automation's newest firings, each with what the playground needs to open its run. */
export async function firingViews(app: AppContext, projectId: string, automationId: string): Promise<FiringView[]> {
  const { items: rows } = await queryFirings(app.db, projectId, { automationId }, { limit: 50 });
  const runIds = rows.flatMap((row) => (row.status === "started" && row.runId ? [row.runId] : []));
  const runs = await runStates(app.db, runIds, projectId);
  return rows.map((row) => {
    const run = row.runId ? runs.get(row.runId) : undefined;
    return {
      ...firingToWire(row),
      ...(run && row.status === "started"
        ? {
            run: {
              status: run.status,
              agent_id: run.agentId,
              variant_id: run.variantId,
              revision_id: run.revisionId,
            },
          }
        : {}),
    };
  });
}

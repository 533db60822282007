import { variantTabPath } from "@/components/agents/agent-paths";
import type { RunWire } from "@/server/agent-runs";
import type { RunStatus } from "./run-status";

export interface RunFilters {
  status?: RunStatus;
  /** The door the runs came through (`?door=`): mcp, a2a, openai, invoke ... */
  door?: RunWire["origin"];
}

/** The Runs tab of a variant's page, optionally filtered to one status (`?status=`) and one door (`?door=`). */
export function runsPath(agentId: string, variantId: string, { status, door }: RunFilters = {}): string {
  const query = new URLSearchParams({ ...(status && { status }), ...(door && { door }) }).toString();
  const base = variantTabPath(agentId, variantId, "runs");
  return query ? `${base}?${query}` : base;
}

import { variantTabPath } from "@/components/agents/agent-paths";
import type { RunStatus } from "./run-status";

/** The Runs tab of a variant's page, optionally filtered to one status (`?status=`). */
export function runsPath(agentId: string, variantId: string, status?: RunStatus): string {
  const base = variantTabPath(agentId, variantId, "runs");
  return status ? `${base}?status=${status}` : base;
}

import type { ResolvedAgent } from "@/server/agent-runs";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { resolveAgentTarget, type AgentTarget } from "./agent-runner";

/**
 * Every cell of a run's invocation step runs the same agent: its template (a revision read, the
 * template checked and its embeds resolved) and its connection (the project's vault read and
 * unsealed) are resolved once per run and step, not once per cell. An entry lives a few minutes,
 * so a connection changed in the vault reaches a long run soon; a failed resolution is not kept
 * (the cell fails with it, the next one tries again).
 */
const cache = new Map<string, { at: number; agent: Promise<ResolvedAgent> }>();
const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 64;

export function runAgent(
  app: AppContext,
  runId: string,
  stepKey: string,
  principal: Principal,
  target: AgentTarget,
): () => Promise<ResolvedAgent> {
  return () => {
    const key = `${runId}/${stepKey}`;
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && now - hit.at < TTL_MS) return hit.agent;
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    const agent = resolveAgentTarget(app, principal, target);
    cache.set(key, { at: now, agent });
    agent.catch(() => {
      if (cache.get(key)?.agent === agent) cache.delete(key);
    });
    return agent;
  };
}

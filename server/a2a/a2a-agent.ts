import { AgentCard } from "@a2a-js/sdk";
import { resolveAgent } from "@/server/agent-runs";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { agentCard, type CardTool } from "./agent-card";
import { exposedAgent, exposedAgentEntry, exposedReferences } from "./exposed-agent";
import { TaskHandler } from "./task-handler";

/** Where an exposed agent is served: its JSON-RPC endpoint; the card is at `<endpoint>/.well-known/agent-card.json`. */
export function a2aEndpoint(origin: string, projectId: string, name: string): string {
  return `${origin}/services/a2a/v0/${projectId}/${name}`;
}

/** The origin clients reach the service at: PUBLIC_URL, else the request's forwarded or own host. */
export function publicOrigin(app: AppContext, request: { header(name: string): string | null }): string {
  if (app.config.publicUrl) return app.config.publicUrl;
  const host = request.header("x-forwarded-host") ?? request.header("host") ?? "localhost";
  const proto = request.header("x-forwarded-proto") ?? "http";
  return `${proto}://${host}`;
}

/**
 * The agent's card as JSON: the tools are read from the revision the environment runs now. An
 * agent whose template cannot be resolved (its connection's key is gone) still has a card, with
 * its own skill only; calling it then answers why.
 */
export async function exposedAgentCard(app: AppContext, principal: Principal, name: string, origin: string) {
  const target = await exposedAgent(app.db, principal, name);
  const tools: CardTool[] = await resolveAgent(app, principal, { references: exposedReferences(target) }).then(
    (resolved) => resolved.template.tools as CardTool[],
    () => [],
  );
  return { target, card: agentCard(target, tools, a2aEndpoint(origin, principal.projectId, name)) };
}

/**
 * The A2A request handler of an exposed agent, for one caller. Its card serves the protocol
 * version check only (its interfaces), so it is built from the exposure row: no template
 * resolution and no read of the environments per call.
 */
export async function a2aHandler(app: AppContext, principal: Principal, name: string, origin: string) {
  const target = await exposedAgentEntry(app.db, principal, name);
  const card = agentCard(
    { ...target, title: target.name, description: null, version: "" },
    [],
    a2aEndpoint(origin, principal.projectId, name),
  );
  return new TaskHandler(app, principal, target, AgentCard.fromJSON(card));
}

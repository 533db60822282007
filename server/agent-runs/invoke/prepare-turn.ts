import { cachedProjectPrices } from "@/server/pricing";
import { randomUUID } from "node:crypto";
import type { AgentTemplate } from "@/server/agent-template";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { aliasOrder, checkTurn, projectAlias } from "@/server/controls";
import { BadRequestError } from "@/server/core/errors";
import { sandboxForSession } from "@/server/sandbox";
import { readInboundMessages, type MessagesFormat } from "@/server/streams";
import { vaultOf } from "@/server/vault";
import { resolveClaudeConnection, withHarnessBuiltins } from "../harnesses";
import { resolveConnection, type ResolvedConnection } from "../providers";
import type { RunAgent } from "../run-agent";
import type { Sampling, TurnInput } from "../run-types";
import { skillsSeed } from "../skills";
import type { TraceContext } from "../trace-context";
import type { InvokeRequest } from "./invoke-request";
import { loadTemplate } from "./load-template";
import { assertRunnable } from "./turn-refusals";
import { turnSecrets } from "./turn-secrets";
import { runNested } from "./run-nested";
import { buildTurnTools } from "./turn-tools";

export interface PrepareOptions {
  /** The run's trace: tools that start nested runs place them in it. */
  trace: TraceContext;
  /** 0 for a run a client started; nested runs (reference tools) count up. */
  depth: number;
  /** The run this turn is recorded as: its approval requests and its nested runs name it. */
  runId?: string;
  /** Tools the caller declares for this turn only (the OpenAI door's `tools`): offered as `client` tools. */
  clientTools?: AgentTemplate["tools"];
  /** Generation settings for the turn (a prompt application run as an inline template). */
  sampling?: Sampling;
  /** Who runs, for an inline template that stands for a committed artifact (a prompt application). */
  agent?: RunAgent;
  /**
   * The template and connection `resolveAgent` gave for this body before: a caller running the
   * same agent many times (an evaluation run) resolves it once instead of once per turn. Not
   * with `clientTools` (they are part of the template).
   */
  resolved?: ResolvedAgent;
  /** The sticky key of a split environment (`X-Svc-Split-Key`); the session id when absent. */
  splitKey?: string;
  /**
   * Approval requests already answered out of band (`responding`: server/agent-runs/interactions)
   * whose answers this turn's input carries: its `ApprovalStore` may settle them. Never from a body.
   */
  claimedApprovals?: readonly string[];
}

/** What a turn runs and through which connection: the validated template, who runs, the connection. */
export interface ResolvedAgent {
  template: AgentTemplate;
  agent: RunAgent;
  connection: ResolvedConnection;
  /** When `llm.model` names one of the project's model aliases: its entries in the order they are tried. */
  alias?: TurnInput["alias"];
}

/**
 * The template (inline or by reference, validated, with the harness's builtins) and who runs it;
 * refused when this deployment cannot run it.
 */
async function loadAgent(
  app: AppContext,
  principal: Principal,
  body: InvokeRequest,
  clientTools: AgentTemplate["tools"] | undefined,
  splitKey?: string,
): Promise<Omit<ResolvedAgent, "connection">> {
  const loaded = await loadTemplate(app.db, principal, body, splitKey);
  const template = withHarnessBuiltins(withClientTools(loaded.template, clientTools), loaded.agent);
  assertRunnable(template, app.config);
  return { template, agent: loaded.agent };
}

/**
 * The turn's connection; with `llm.model` naming a project alias (and no `llm.provider` or
 * connection slug, which would name a provider's own model), every entry's connection, in the
 * order the alias tries them.
 */
async function connectionFor(
  app: AppContext,
  principal: Principal,
  template: AgentTemplate,
): Promise<Pick<ResolvedAgent, "connection" | "alias">> {
  const resolution = { config: app.config, vault: vaultOf(app), db: app.db, projectId: principal.projectId };
  if (template.harness.kind === "external_harness")
    return { connection: await resolveClaudeConnection(template.llm, resolution, process.env) };
  const { llm } = template;
  const alias =
    llm.provider === null && !llm.connection?.slug
      ? await projectAlias(app, principal.projectId, llm.model)
      : undefined;
  if (!alias) return { connection: await resolveConnection(llm, resolution) };
  const connections = [];
  for (const entry of aliasOrder(alias.entries, Math.random()))
    connections.push(
      await resolveConnection(
        {
          ...llm,
          provider: entry.provider as AgentTemplate["llm"]["provider"],
          model: entry.model,
          connection: entry.connection ? { mode: "managed", slug: entry.connection } : llm.connection,
        },
        resolution,
      ),
    );
  return {
    connection: connections[0],
    alias: { name: alias.name, connections, attemptTimeoutMs: alias.attemptTimeoutMs },
  };
}

/** The template and connection of a body, for `PrepareOptions.resolved` (see there). */
export async function resolveAgent(app: AppContext, principal: Principal, body: InvokeRequest): Promise<ResolvedAgent> {
  const loaded = await loadAgent(app, principal, body, undefined);
  return { ...loaded, ...(await connectionFor(app, principal, loaded.template)) };
}

/**
 * Everything that can fail before the first byte, one step each: the template (inline or by
 * reference), what this deployment refuses to run, the messages, the connection, the sandbox,
 * the secrets and the tools. A failure here is a JSON error with its real status even when the
 * caller asked for a stream.
 */
export async function prepareTurn(
  app: AppContext,
  principal: Principal,
  body: InvokeRequest,
  format: MessagesFormat,
  options: PrepareOptions,
): Promise<TurnInput> {
  const { template, agent } =
    options.resolved ?? (await loadAgent(app, principal, body, options.clientTools, options.splitKey));

  const messages = readInboundMessages(body.data?.inputs?.messages ?? [], format);
  if (!messages.length)
    throw new BadRequestError(
      "data.inputs.messages holds no message with a role; send at least one user message",
      "no_messages",
    );
  const sessionId = body.session_id ?? randomUUID().replaceAll("-", "");

  const { connection, alias } = options.resolved ?? (await connectionFor(app, principal, template));
  const runs = options.agent ?? agent;
  // The project's prices, read once for the turn: its own cost and its budgets' spend.
  const prices = cachedProjectPrices(app, principal.projectId);
  prices.catch(() => undefined);
  // Before anything is sent (MCP servers included): allowlists, budgets, rate limits.
  const controls = await checkTurn(
    app,
    { projectId: principal.projectId, apiKeyId: principal.apiKeyId, agentId: runs.references?.workflow?.id },
    alias?.connections ?? [connection],
    { prices },
  );

  // Opened lazily: a turn that calls no built-in never reads the workspace.
  const { sandbox, notApplied } = sandboxForSession(template.sandbox, {
    db: app.db,
    projectId: principal.projectId,
    sessionId,
    settings: app.config.sandbox,
    egress: { allowlist: app.config.egressAllowlist, ca: app.config.egressCa },
    seed: skillsSeed(template),
    now: () => app.now(),
  });
  const activity = new EventTarget();
  const { tools, mcp } = await buildTurnTools({
    app,
    principal,
    template,
    agent,
    sessionId,
    sandbox,
    secrets: turnSecrets(app, principal.projectId, sandbox.kind),
    flags: body.flags,
    trace: options.trace,
    depth: options.depth,
    runId: options.runId,
    claimedApprovals: options.claimedApprovals,
    activity,
    runNested: (request) =>
      runNested(app, principal, request, (nestedBody, nested) =>
        prepareTurn(app, principal, nestedBody, "native", nested),
      ),
  });

  const { totalMs, firstTokenMs, idleMs, maxSteps, maxRetries } = app.config.agentRuns;
  // best_effort: the run goes ahead and its stream says which declared boundary was not applied.
  const notices = notApplied.length
    ? [{ type: "data" as const, name: "sandbox_boundary", data: { not_applied: notApplied } }]
    : [];
  return {
    projectId: principal.projectId,
    ...(principal.apiKeyId ? { apiKeyId: principal.apiKeyId } : {}),
    agent: runs,
    template,
    messages,
    connection,
    tools,
    sessionId,
    notices,
    activity,
    limits: { totalMs, firstTokenMs, idleMs, maxSteps, maxRetries },
    secrets: [...(mcp.secrets ?? []), ...aliasKeys(alias)],
    release: mcp.close,
    sampling: options.sampling,
    alias,
    controls,
    prices: await prices,
  };
}

/** The registry refuses a name the agent already uses (`duplicate_tool`). */
function withClientTools(template: AgentTemplate, extra: AgentTemplate["tools"] | undefined): AgentTemplate {
  return extra?.length ? { ...template, tools: [...template.tools, ...extra] } : template;
}

/** Every alias entry's key is masked in the run's trace, as the first entry's is. */
function aliasKeys(alias: TurnInput["alias"]): string[] {
  return (alias?.connections ?? []).slice(1).flatMap((connection) => (connection.apiKey ? [connection.apiKey] : []));
}

import { randomUUID } from "node:crypto";
import { sandboxRefusal, type AgentTemplate } from "@/server/agents";
import type { Principal } from "@/server/auth";
import { BadRequestError, ForbiddenError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { checkAgentTemplate } from "@/server/domains/workflows/agents";
import { workflowsSpec } from "@/server/domains/workflows/spec";
import type { AppContext } from "@/server/core/app-context";
import { readInboundMessages, type MessagesFormat } from "@/server/streams";
import { secretValueOf, vaultOf } from "@/server/vault";
import { retrieveRevision } from "@/server/versioning";
import { sandboxForSession } from "@/server/sandbox";
import { harnessRefusal, resolveClaudeConnection, serviceToolRules, withHarnessBuiltins } from "../harnesses";
import { connectMcpTools } from "../mcp";
import { ApprovalStore } from "../permissions";
import { guardedFetchFor, resolveConnection } from "../providers";
import { skillsSeed } from "../skills";
import type { RunAgent, Sampling, TurnInput } from "../run-types";
import type { TraceContext } from "../trace-context";
import { defaultToolRegistry, type ToolRegistry } from "../tools";
import type { InvokeRequest } from "./invoke-request";
import { runNested } from "./run-nested";

export interface PrepareOptions {
  /** The run's trace: tools that start nested runs place them in it. */
  trace: TraceContext;
  /** 0 for a run a client started; nested runs (reference tools) count up. */
  depth: number;
  /** Tools the caller declares for this turn only (the OpenAI door's `tools`): offered as `client` tools. */
  clientTools?: AgentTemplate["tools"];
  /** Generation settings for the turn (a prompt application run as an inline template). */
  sampling?: Sampling;
  /** Who runs, for an inline template that stands for a committed artifact (a prompt application). */
  agent?: RunAgent;
}

const registry: ToolRegistry = defaultToolRegistry();

/**
 * Everything that can fail before the first byte: the template (inline or by reference),
 * messages, sandbox, connection and tools. A failure here is a JSON error with its real status
 * even when the caller asked for a stream.
 */
export async function prepareTurn(
  app: AppContext,
  principal: Principal,
  body: InvokeRequest,
  format: MessagesFormat,
  options: PrepareOptions,
): Promise<TurnInput> {
  const loaded = await loadTemplate(app.db, principal, body);
  const { agent } = loaded;
  const template = withHarnessBuiltins(withClientTools(loaded.template, options.clientTools), agent);
  const refusal = sandboxRefusal(template.sandbox.kind, { SANDBOX_PROVIDERS: app.config.sandbox.providers, DAYTONA_API_KEY: app.config.sandbox.daytona?.apiKey });
  if (refusal) throw new ForbiddenError(refusal, "sandbox_not_enabled");
  const harnessRefused = harnessRefusal(template.harness.kind, app.config);
  if (harnessRefused) throw new BadRequestError(harnessRefused, "harness_not_enabled");
  const external = template.harness.kind === "external_harness";
  // Claude Code's own tools run on this host: a run declaring the hosted sandbox would not be in it.
  if (external && template.sandbox.kind !== "local") {
    throw new BadRequestError(`sandbox.kind "${template.sandbox.kind}": the external harness (Claude Code) runs its tools on this host, not in a hosted sandbox; use sandbox.kind "local", or core_harness or service_harness`, "sandbox_not_supported");
  }
  // Claude Code reads no session workspace: skills laid there would be dropped without a word.
  if (external && template.skills.length) {
    throw new BadRequestError("skills: the external harness (Claude Code) does not load skills in this deployment; remove skills or use core_harness or service_harness", "skills_not_supported");
  }
  const messages = readInboundMessages(body.data?.inputs?.messages ?? [], format);
  if (!messages.length) throw new BadRequestError("data.inputs.messages holds no message with a role; send at least one user message", "no_messages");
  const sessionId = body.session_id ?? randomUUID().replaceAll("-", "");
  const resolution = { config: app.config, vault: vaultOf(app), projectId: principal.projectId };
  const connection = external ? await resolveClaudeConnection(template.llm, resolution, process.env) : await resolveConnection(template.llm, resolution);
  const { projectId } = principal;
  const { commandTimeoutMs, toolResultMaxBytes, codeToolMemoryMb } = app.config.sandbox;
  // Opened lazily: a turn that calls no built-in never reads the workspace.
  const { sandbox, notApplied } = sandboxForSession(template.sandbox, {
    db: app.db,
    projectId,
    sessionId,
    settings: app.config.sandbox,
    egress: { allowlist: app.config.egressAllowlist, ca: app.config.egressCa },
    seed: skillsSeed(template),
  });
  const activity = new EventTarget();
  const findSecret = async (name: string) => (await vaultOf(app).list(projectId)).find((s) => s.slug === name || s.name === name);
  const secretValue = async (name: string) => {
    const secret = await findSecret(name);
    return secret ? secretValueOf(secret) : undefined;
  };
  // A code tool's secrets reach its command; in a hosted sandbox that is someone else's machine, where provider keys never go.
  const codeSecretValue = async (name: string) => {
    const secret = await findSecret(name);
    if (secret && secret.kind !== "secret" && sandbox.kind !== "local") {
      throw new BadRequestError(`tools: "${name}" is a provider key, and provider keys never enter a ${sandbox.kind}; store the value a code tool needs as a plain secret`, "secret_not_allowed");
    }
    return secret ? secretValueOf(secret) : undefined;
  };
  const mcp = await connectMcpTools(template.mcps, {
    fetch: guardedFetchFor(app.config.egressAllowlist),
    secretValue,
    connectTimeoutMs: app.config.mcp.connectTimeoutMs,
    callTimeoutMs: app.config.mcp.callTimeoutMs,
    resultMaxBytes: toolResultMaxBytes,
  });
  let tools;
  try {
    tools = await registry.build(
      external ? externalHarnessTools(template) : template.tools,
      {
        projectId,
        sessionId,
        sandbox,
        resultMaxBytes: toolResultMaxBytes,
        codeLimits: { timeoutMs: commandTimeoutMs, memoryMb: codeToolMemoryMb },
        policy: { rules: external ? serviceToolRules(template.harness.permissions) : template.harness.permissions, runnerDefault: template.runner.permissions.default, unattended: body.flags?.unattended ?? undefined },
        approvals: new ApprovalStore(app.db, projectId, sessionId),
        secretValue: codeSecretValue,
        run: {
          app,
          principal,
          agent,
          depth: options.depth,
          traceId: options.trace.traceId,
          activity,
          runNested: (request) => runNested(app, principal, { ...request, traceId: options.trace.traceId, depth: options.depth + 1, activity }),
        },
      },
      mcp.tools,
    );
  } catch (error) {
    await mcp.close();
    throw error;
  }
  const { totalMs, firstTokenMs, idleMs, maxSteps, maxRetries } = app.config.agentRuns;
  // best_effort: the run goes ahead and its stream says which declared boundary was not applied.
  const notices = notApplied.length ? [{ type: "data" as const, name: "sandbox_boundary", data: { not_applied: notApplied } }] : [];
  return {
    projectId: principal.projectId,
    agent: options.agent ?? agent,
    template,
    messages,
    connection,
    tools,
    sessionId,
    notices,
    activity,
    limits: { totalMs, firstTokenMs, idleMs, maxSteps, maxRetries },
    secrets: mcp.secrets,
    release: mcp.close,
    sampling: options.sampling,
  };
}

/** The registry refuses a name the agent already uses (`duplicate_tool`). */
function withClientTools(template: AgentTemplate, extra: AgentTemplate["tools"] | undefined): AgentTemplate {
  return extra?.length ? { ...template, tools: [...template.tools, ...extra] } : template;
}

/** The tools Claude Code is served over `agenta-tools`; built-in entries have no effect there (the validation warns). */
function externalHarnessTools(template: AgentTemplate): AgentTemplate["tools"] {
  return template.tools.filter((entry) => entry.type !== "builtin");
}

async function loadTemplate(db: Database, principal: Principal, body: InvokeRequest): Promise<{ template: AgentTemplate; agent: RunAgent }> {
  // flags.resolve (default true): embeds in the template are resolved before it runs.
  const resolve = body.flags?.resolve !== false;
  const parameters = body.data?.parameters;
  if (parameters) {
    return { template: (await checkAgentTemplate(db, principal.projectId, parameters.agent ?? {}, "data.parameters.agent.", { resolve })).template, agent: {} };
  }
  const refs = body.references;
  if (!refs || Object.values(refs).every((value) => value === null || value === undefined)) {
    throw new BadRequestError("Send data.parameters.agent (an inline template) or references naming a workflow revision to run", "missing_agent");
  }
  const { revision } = await retrieveRevision(
    db,
    { projectId: principal.projectId, userId: principal.userId },
    workflowsSpec,
    {
      artifact: refs.workflow ?? undefined,
      variant: refs.workflow_variant ?? undefined,
      revision: refs.workflow_revision ?? undefined,
      environment: refs.environment ?? undefined,
      environmentVariant: refs.environment_variant ?? undefined,
      environmentRevision: refs.environment_revision ?? undefined,
      key: refs.key ?? undefined,
    },
  );
  const agent = (revision.data?.parameters as Record<string, unknown> | undefined)?.agent;
  if (agent === undefined) {
    throw new BadRequestError(`workflow revision ${revision.id} has no data.parameters.agent; it is not an agent`, "not_an_agent");
  }
  const { template } = await checkAgentTemplate(db, principal.projectId, agent, "data.parameters.agent.", { resolve });
  return {
    template,
    agent: {
      name: revision.artifactSlug,
      references: {
        workflow: { id: revision.artifactId, slug: revision.artifactSlug },
        workflow_variant: { id: revision.variantId, slug: revision.variantSlug },
        workflow_revision: { id: revision.id, slug: revision.slug, version: String(revision.version) },
      },
    },
  };
}

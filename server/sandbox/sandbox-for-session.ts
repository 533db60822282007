import type { AgentTemplate } from "@/server/agent-template";
import type { Config } from "@/server/core/config";
import { ForbiddenError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import type { AllowlistEntry } from "@/server/egress";
import { daytonaBoundary, daytonaClient, daytonaExtras, DaytonaSandbox } from "./daytona";
import type { Sandbox } from "./sandbox";
import { sandboxBoundary } from "./sandbox-network";
import { SessionSandbox } from "./session-sandbox";
import type { WorkspaceSeed } from "./workspace-seed";

export interface SessionSandboxContext {
  db: Database;
  projectId: string;
  sessionId: string;
  settings: Config["sandbox"];
  egress: { allowlist: AllowlistEntry[]; ca?: string[] };
  seed?: WorkspaceSeed;
  /** The app's clock (`context.now`): the local workspace's idle expiry is read by it. */
  now?: () => Date;
}

/**
 * The one place a provider is chosen: the session's sandbox for `sandbox.kind`, its declared
 * boundary applied (a `strict` one that cannot be is a 400 here, before the run) and the
 * boundaries a `best_effort` run goes without. Nothing is opened yet: that waits for a tool call.
 */
export function sandboxForSession(
  spec: AgentTemplate["sandbox"],
  context: SessionSandboxContext,
): { sandbox: Sandbox; notApplied: string[] } {
  const { db, projectId, sessionId, settings, seed, now } = context;
  if (spec.kind === "daytona_sandbox") {
    if (!settings.daytona)
      throw new ForbiddenError(
        'sandbox.kind "daytona_sandbox" needs DAYTONA_API_KEY in this deployment',
        "sandbox_not_enabled",
      );
    const boundary = daytonaBoundary(spec.permissions);
    const sandbox = new DaytonaSandbox({
      client: daytonaClient(settings.daytona),
      settings: settings.daytona,
      projectId,
      sessionId,
      network: boundary.network,
      extras: daytonaExtras(spec.extras),
      workspaceIdleMs: settings.workspaceIdleMs,
      commandTimeoutMs: settings.commandTimeoutMs,
      seed,
    });
    return { sandbox, notApplied: boundary.notApplied };
  }
  const boundary = sandboxBoundary(spec.permissions, context.egress);
  const limits = {
    maxBytes: settings.workspaceMaxBytes,
    idleMs: settings.workspaceIdleMs,
    commandTimeoutMs: settings.commandTimeoutMs,
  };
  return {
    sandbox: new SessionSandbox({ db, projectId, sessionId, limits, fetch: boundary.fetch, seed, now }),
    notApplied: boundary.notApplied,
  };
}

import { createHash } from "node:crypto";
import {
  DaytonaConflictError,
  DaytonaNotFoundError,
  DaytonaTimeoutError,
  type Daytona,
  type Sandbox as RemoteSandbox,
} from "@daytonaio/sdk";
import type { DaytonaSettings } from "@/server/core/config";
import type { CommandResult, ExecOptions, Sandbox, SandboxFiles } from "../sandbox";
import { WORKSPACE_ROOT } from "../workspace-snapshot";
import { laySeed, type WorkspaceSeed } from "../workspace-seed";
import type { DaytonaNetwork } from "./daytona-boundary";
import { daytonaCommand } from "./daytona-command";
import { describeDaytonaError } from "./daytona-error";
import { extrasFingerprint, type DaytonaExtras } from "./daytona-extras";
import { daytonaFiles } from "./daytona-files";

export interface DaytonaSandboxOptions {
  client: Daytona;
  settings: DaytonaSettings;
  projectId: string;
  sessionId: string;
  network: DaytonaNetwork;
  extras: DaytonaExtras;
  /** A session's sandbox untouched this long is deleted (SANDBOX_WORKSPACE_IDLE_MS). */
  workspaceIdleMs: number;
  commandTimeoutMs: number;
  seed?: WorkspaceSeed;
}

/** Labels that say whose sandbox it is and what it was created with. */
export const LABELS = { project: "svc.project", session: "svc.session", extras: "svc.extras" } as const;

/** How long creating or starting a sandbox may take before the tool call fails. */
const LIFECYCLE_TIMEOUT_S = 120;

/** The whole workspace setup: a folder the sandbox's user owns, made with sudo when it lacks the rights. */
const PREPARE_WORKSPACE = `mkdir -p ${WORKSPACE_ROOT} 2>/dev/null || sudo -n mkdir -p ${WORKSPACE_ROOT}; [ -w ${WORKSPACE_ROOT} ] || sudo -n chown "$(id -u):$(id -g)" ${WORKSPACE_ROOT}; [ -w ${WORKSPACE_ROOT} ]`;

/**
 * The `daytona_sandbox` of one session: a Daytona sandbox named after the (project, session)
 * pair, found or created on the first tool call of a turn and reused by every later turn, on any
 * app process. Daytona keeps its lifecycle: it stops after DAYTONA_IDLE_STOP_MINUTES without
 * activity (started again here when a turn needs it) and is deleted once it has been idle for
 * SANDBOX_WORKSPACE_IDLE_MS. Its disk is the workspace, so nothing is saved here. Commands run
 * through Daytona's toolbox; nothing of this host (no provider key, no environment) is given to it.
 */
export class DaytonaSandbox implements Sandbox {
  readonly kind = "daytona_sandbox" as const;
  readonly shell =
    "a Linux sandbox hosted by Daytona, with its image's programs; network as the sandbox's permissions allow";
  readonly capsCommandMemory = true;
  private opened?: Promise<RemoteSandbox>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: DaytonaSandboxOptions) {}

  serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async files(): Promise<SandboxFiles> {
    return daytonaFiles(await this.open(), (command) => this.exec(command));
  }

  async exec(command: string, signal?: AbortSignal, options: ExecOptions = {}): Promise<CommandResult> {
    const remote = await this.open();
    const { commandTimeoutMs } = this.options;
    const line = daytonaCommand(command, options);
    const run = remote.process.executeCommand(
      line,
      WORKSPACE_ROOT,
      undefined,
      Math.max(1, Math.ceil(commandTimeoutMs / 1000)),
    );
    try {
      const response = await abortable(run, signal);
      return { stdout: response.result, stderr: "", exitCode: response.exitCode ?? -1 };
    } catch (error) {
      if (error instanceof DaytonaTimeoutError)
        return {
          stdout: "",
          stderr: `command stopped after ${commandTimeoutMs} ms (SANDBOX_COMMAND_TIMEOUT_MS)\n`,
          exitCode: 124,
        };
      throw describeDaytonaError(error, this.options.settings);
    }
  }

  /** The sandbox's disk is the workspace: nothing to save. */
  async persist(): Promise<void> {}

  /** Finds or creates the session's sandbox, starts it, applies this turn's network, lays the seed. */
  private open(): Promise<RemoteSandbox> {
    this.opened ??= this.connect().catch((error) => {
      this.opened = undefined;
      throw describeDaytonaError(error, this.options.settings);
    });
    return this.opened;
  }

  private async connect(): Promise<RemoteSandbox> {
    const { client, extras, network, seed } = this.options;
    const name = sandboxName(this.options.projectId, this.options.sessionId);
    const remote = (await find(client, name)) ?? (await this.create(name));
    if (remote.labels?.[LABELS.extras] !== extrasFingerprint(extras)) {
      throw new Error(
        "this session's Daytona sandbox was created with other sandbox.extras; start a new session to use the new ones",
      );
    }
    await ready(remote);
    if (
      Boolean(remote.networkBlockAll) !== network.networkBlockAll ||
      (remote.networkAllowList ?? "") !== network.networkAllowList
    ) {
      await remote.updateNetworkSettings(network);
    }
    const prepared = await remote.process.executeCommand(
      daytonaCommand(PREPARE_WORKSPACE, {}),
      undefined,
      undefined,
      30,
    );
    if (prepared.exitCode !== 0) {
      throw new Error(
        `the Daytona sandbox's user cannot make ${WORKSPACE_ROOT} writable (a snapshot needs a root user or passwordless sudo): ${prepared.result}`.trim(),
      );
    }
    if (seed)
      await laySeed(
        daytonaFiles(remote, (command) => this.execOn(remote, command)),
        seed,
      );
    return remote;
  }

  private async create(name: string): Promise<RemoteSandbox> {
    const { client, extras, network, settings, workspaceIdleMs, projectId, sessionId } = this.options;
    const { image, resources, ...rest } = extras;
    const params = {
      ...rest,
      name,
      labels: {
        ...extras.labels,
        [LABELS.project]: projectId,
        [LABELS.session]: sessionId,
        [LABELS.extras]: extrasFingerprint(extras),
      },
      envVars: {},
      networkBlockAll: network.networkBlockAll,
      networkAllowList: network.networkAllowList || undefined,
      autoStopInterval: settings.idleStopMinutes,
      // Counted from the stop: together, idle for SANDBOX_WORKSPACE_IDLE_MS.
      autoDeleteInterval: Math.max(0, Math.ceil(workspaceIdleMs / 60_000) - settings.idleStopMinutes),
    };
    try {
      return image
        ? await client.create({ ...params, image, resources }, { timeout: LIFECYCLE_TIMEOUT_S })
        : await client.create(params, { timeout: LIFECYCLE_TIMEOUT_S });
    } catch (error) {
      // Another turn of the session created it first.
      if (error instanceof DaytonaConflictError) {
        const existing = await find(client, name);
        if (existing) return existing;
      }
      throw error;
    }
  }

  private async execOn(remote: RemoteSandbox, command: string): Promise<CommandResult> {
    const response = await remote.process.executeCommand(daytonaCommand(command, {}), WORKSPACE_ROOT, undefined, 30);
    return { stdout: response.result, stderr: "", exitCode: response.exitCode ?? -1 };
  }
}

/** A name Daytona accepts, the same for a (project, session) pair on every app process. */
export function sandboxName(projectId: string, sessionId: string): string {
  return `svc-${createHash("sha256").update(`${projectId}/${sessionId}`).digest("hex").slice(0, 40)}`;
}

async function find(client: Daytona, name: string): Promise<RemoteSandbox | null> {
  try {
    return await client.get(name);
  } catch (error) {
    if (error instanceof DaytonaNotFoundError) return null;
    throw error;
  }
}

/** Brings a found sandbox to `started`: a stopped or archived one is started, a broken one recovered. */
async function ready(remote: RemoteSandbox): Promise<void> {
  switch (remote.state) {
    case "started":
      return;
    case "stopped":
    case "archived":
      return remote.start(LIFECYCLE_TIMEOUT_S);
    case "stopping":
      await remote.waitUntilStopped(LIFECYCLE_TIMEOUT_S);
      return remote.start(LIFECYCLE_TIMEOUT_S);
    case "error":
    case "build_failed":
      if (remote.recoverable) return remote.recover(LIFECYCLE_TIMEOUT_S);
      throw new Error(
        `this session's Daytona sandbox is in state ${remote.state}${remote.errorReason ? `: ${remote.errorReason}` : ""}`,
      );
    case "destroying":
    case "destroyed":
      throw new Error(
        "this session's Daytona sandbox is being deleted (it was idle for SANDBOX_WORKSPACE_IDLE_MS); try again in a moment",
      );
    default:
      return remote.waitUntilStarted(LIFECYCLE_TIMEOUT_S);
  }
}

/** Stops waiting when the call is cancelled; the command itself ends at its own time limit. */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new Error("the call was cancelled"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("the call was cancelled"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import {
  query,
  type PermissionResult,
  type Query,
  type SDKMessage,
  type SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";
import { logger } from "@/server/core/logger";
import { approvalRequest, type ToolCallIdentity } from "../../permissions";
import type { Emit } from "../../run-types";
import { DENIED_BY_POLICY, DENIED_UNATTENDED } from "../../tools/tool-registry";
import type { BuiltTools } from "../../tools/tool-types";
import { agentaToolsServer, serviceToolName, type ToolCallResult } from "./agenta-tools-server";
import type { SessionWorkdir } from "./session-workdir";

/** How long a closing process may take to exit before it is killed. */
const EXIT_GRACE_MS = 3_000;

/** What the process reports to the turn that is driving it. */
export interface TurnContext {
  tools: BuiltTools;
  emit: Emit;
  /** A call waits for a person: the turn ends paused, the process stays parked at the gate. */
  pause(): void;
  /** The turn must end now (an unattended run that would have to ask). */
  stop(stopReason: string, message: string): void;
}

/** A tool call parked at Claude Code's permission gate until a person answers. */
export interface PendingGate extends ToolCallIdentity {
  input: Record<string, unknown>;
  approvalId: string;
  resolve(result: PermissionResult): void;
}

/** A client tool call held open inside the process until the caller sends its result. */
export interface PendingClientCall extends ToolCallIdentity {
  resolve(result: ToolCallResult): void;
}

export interface ClaudeProcessOptions {
  workdir: SessionWorkdir;
  env: Record<string, string>;
  /** An alias or a claude-* id; `default` leaves the choice to Claude Code. */
  model: string;
  tools: BuiltTools;
  maxTurns: number;
  /** How long a parked call (an approval, a client tool) may wait: the session's idle time. */
  parkMs: number;
}

/**
 * One Claude Code process (the SDK's `query` in streaming-input mode), alive across turns: each
 * turn pushes a user message and reads until Claude Code's `result`. Claude Code has no tools of
 * its own here (`tools: []`); the template's tools reach it over the in-process `agenta-tools`
 * MCP server, and its permission gate (`canUseTool`) asks the registry's policy, raising an
 * approval request and holding the call open when the answer is `ask`.
 */
export class ClaudeProcess {
  turn?: TurnContext;
  pending?: PendingGate;
  clientCall?: PendingClientCall;
  /** Calls a person approved (the tool body checks this before running an `ask` call). */
  readonly approved = new Set<string>();
  readonly denied = new Set<string>();
  /** Client tool calls the caller answered (their result is already the caller's). */
  readonly fromClient = new Set<string>();
  /** Each call's own return value, for the tool_result event. */
  readonly outputs = new Map<string, { output: unknown; isError: boolean }>();
  private readonly inbox = new MessageQueue<SDKUserMessage>();
  private readonly abort = new AbortController();
  private query?: Query;
  private child?: ChildProcess;
  private exited: Promise<void> = Promise.resolve();
  private reading?: Promise<IteratorResult<SDKMessage, void>>;
  private closed = false;

  private constructor(private readonly options: ClaudeProcessOptions) {}

  static async start(options: ClaudeProcessOptions): Promise<ClaudeProcess> {
    const claude = new ClaudeProcess(options);
    const server = await agentaToolsServer(options.tools, options.parkMs, (name, args, toolUseId, signal) =>
      claude.callTool(name, args, toolUseId, signal),
    );
    claude.query = query({
      prompt: claude.inbox,
      options: {
        cwd: options.workdir.cwd,
        env: options.env,
        ...(options.model === "default" ? {} : { model: options.model }),
        // Only the session directory's `.claude/settings.json` and CLAUDE.md; never the host user's.
        settingSources: ["project"],
        tools: [],
        mcpServers: { [server.name]: server },
        canUseTool: (toolName, input, gate) => claude.gate(toolName, input, gate),
        includePartialMessages: true,
        maxTurns: options.maxTurns,
        abortController: claude.abort,
        // Spawned here so closing can wait for the exit before the directory is removed (a
        // process still shutting down would write its transcript back into it). Its stderr can
        // quote request details, so it is not kept.
        spawnClaudeCodeProcess: (spawned) => {
          const child = spawn(spawned.command, spawned.args, {
            cwd: spawned.cwd,
            env: spawned.env as NodeJS.ProcessEnv,
            signal: spawned.signal,
            stdio: ["pipe", "pipe", "ignore"],
          });
          child.on("error", () => undefined);
          claude.child = child;
          claude.exited = new Promise((resolve) => child.once("exit", () => resolve()));
          return child as ChildProcess & {
            stdin: NonNullable<ChildProcess["stdin"]>;
            stdout: NonNullable<ChildProcess["stdout"]>;
          };
        },
      },
    });
    return claude;
  }

  get alive(): boolean {
    return !this.closed;
  }

  send(text: string): void {
    this.inbox.push({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null });
  }

  /** The next SDK message; a read left pending by a paused turn is picked up by the next one. */
  read(): Promise<IteratorResult<SDKMessage, void>> {
    if (!this.reading) {
      this.reading = this.query!.next();
      // A process closed while parked rejects the read nobody is waiting for any more.
      this.reading.catch(() => undefined);
    }
    return this.reading;
  }

  /** The message `read` gave has been handled. */
  consumed(): void {
    this.reading = undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      this.pending?.resolve({ behavior: "deny", message: "The session ended.", interrupt: true });
      this.pending = undefined;
      this.clientCall?.resolve({ content: [{ type: "text", text: "The session ended." }], isError: true });
      this.clientCall = undefined;
      this.inbox.end();
      this.abort.abort();
      this.query?.close();
    } catch (error) {
      logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "closing a Claude Code process failed",
      );
    } finally {
      if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
        const exited = await Promise.race([this.exited.then(() => true), sleep(EXIT_GRACE_MS).then(() => false)]);
        if (!exited) {
          this.child.kill("SIGKILL");
          await Promise.race([this.exited, sleep(EXIT_GRACE_MS)]);
        }
      }
      await this.options.workdir.remove().catch(() => undefined);
    }
  }

  private async gate(
    toolName: string,
    input: Record<string, unknown>,
    gate: { toolUseID: string; mcpServer?: { name: string; source: string } },
  ): Promise<PermissionResult> {
    const name = serviceToolName(toolName);
    const turn = this.turn;
    const registered = name ? turn?.tools.byName.get(name) : undefined;
    if (!name || !turn || !registered || gate.mcpServer?.source !== "sdk")
      return { behavior: "deny", message: `"${toolName}" is not a tool of this agent.` };
    const permission = registered.permissionFor?.(input) ?? "allow";
    if (permission === "allow") return { behavior: "allow", updatedInput: input };
    if (permission === "deny") return { behavior: "deny", message: DENIED_BY_POLICY(name) };
    const policy = turn.tools.policy;
    if (policy?.unattended === "deny" || !turn.tools.approvals)
      return { behavior: "deny", message: DENIED_UNATTENDED(name) };
    if (policy?.unattended === "fail") {
      const message = `The run needs a person's approval to call ${name}, and it is unattended (flags.unattended: fail).`;
      turn.stop("permission_required", message);
      return { behavior: "deny", message, interrupt: true };
    }
    const identity = { toolCallId: gate.toolUseID, toolName: name, input };
    const request = await approvalRequest(turn.tools.approvals, identity);
    return new Promise<PermissionResult>((resolve) => {
      this.pending = { ...identity, approvalId: request.id, resolve };
      turn.emit(request);
      turn.pause();
    });
  }

  /**
   * A call from Claude Code to a service tool. The policy is applied again here, so a call its
   * own settings let through without asking (an allow rule, bypassPermissions) still cannot run
   * a tool the registry denies, or one that needs an approval nobody gave.
   */
  private async callTool(
    name: string,
    args: Record<string, unknown>,
    toolUseId: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<ToolCallResult> {
    const registered = this.turn?.tools.byName.get(name);
    const fail = (text: string): ToolCallResult => {
      if (toolUseId) this.outputs.set(toolUseId, { output: text, isError: true });
      return { content: [{ type: "text", text }], isError: true };
    };
    if (registered?.kind === "client" && toolUseId && this.turn)
      return this.awaitClient({ toolCallId: toolUseId, toolName: name, input: args }, this.turn);
    if (!registered?.run) return fail(`"${name}" cannot run on this harness.`);
    const permission = registered.permissionFor?.(args) ?? "allow";
    if (permission === "deny") return fail(DENIED_BY_POLICY(name));
    if (permission === "ask" && !(toolUseId && this.approved.delete(toolUseId)))
      return fail(`"${name}" needs a person's approval, and this call was not approved; it did not run.`);
    try {
      const output = await registered.run(args, signal);
      if (toolUseId) this.outputs.set(toolUseId, { output, isError: false });
      return {
        content: [{ type: "text", text: typeof output === "string" ? output : JSON.stringify(output ?? null) }],
      };
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
  }

  /** A client tool: the turn pauses with the call; the caller's result, sent next turn, answers it. */
  private awaitClient(call: ToolCallIdentity, turn: TurnContext): Promise<ToolCallResult> {
    return new Promise<ToolCallResult>((resolve) => {
      this.clientCall = { ...call, resolve };
      const render = turn.tools.byName.get(call.toolName)?.render;
      turn.emit({
        type: "interaction_request",
        id: call.toolCallId,
        kind: "client_tool",
        payload: {
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.input,
          ...(render === undefined || render === null ? {} : { render }),
        },
      });
      turn.pause();
    });
  }
}

/** The input side of a streaming-input query: messages pushed now, read when Claude Code wants them. */
class MessageQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting?: (result: IteratorResult<T>) => void;
  private ended = false;

  push(item: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const wake = this.waiting;
      this.waiting = undefined;
      wake({ value: item, done: false });
    } else this.items.push(item);
  }

  end(): void {
    this.ended = true;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.items.length) return Promise.resolve({ value: this.items.shift()!, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    };
  }
}

import { createHash } from "node:crypto";
import type { Config } from "@/server/core/config";
import { processWide } from "@/server/core/process-wide";
import { stableStringify } from "@/server/core/stable-json";
import { approvalRequest, DENIED_BY_USER, resumeApprovals } from "../../permissions";
import type { Emit, Harness, HarnessOutcome, StepTiming, TurnInput } from "../../run-types";
import { ClaudeEventMapper, type TurnEnd } from "./claude-event-mapper";
import { claudeEnv } from "./claude-env";
import { ClaudeProcess } from "./claude-process";
import { claudeSettings } from "./claude-settings";
import { flattenHistory } from "./flatten-history";
import { continuation, fingerprintOf, historyItems, type HistoryFingerprint } from "./history-fingerprint";
import { createWorkdir } from "./session-workdir";
import { WarmSessionPool } from "./warm-session-pool";

/** A parked session: its process and what it was started for. */
interface WarmSession {
  process: ClaudeProcess;
  /** The template and the credential it runs with: a change of either evicts it. */
  identity: string;
  history: HistoryFingerprint;
  close(): Promise<void>;
}

const poolFor = processWide(
  "external-harness-pool",
  (config: Config) =>
    new WarmSessionPool<WarmSession>({
      idleMs: config.externalHarness.idleMs,
      max: config.externalHarness.maxSessions,
    }),
);

/** The warm sessions of this app's external harness (tests look at them; shutdown closes them). */
export function externalSessions(config: Config): WarmSessionPool<WarmSession> {
  return poolFor(config);
}

/**
 * The external harness: Claude Code through the Agent SDK. A session's process is parked
 * between turns; the next turn continues it warm (only the new user text, or the answer to the
 * approval or client tool call it is parked at) when the template, the credential and the
 * history it has seen are unchanged, and otherwise starts a new process cold from the
 * flattened history.
 */
export function externalHarness(config: Config): Harness {
  const pool = poolFor(config);
  return {
    async run(input: TurnInput, emit: Emit, signal: AbortSignal): Promise<HarnessOutcome> {
      for (const notice of input.notices ?? []) emit(notice);
      const key = `${input.projectId}/${input.sessionId}`;
      const identity = identityOf(input);
      const items = historyItems(input.messages);
      const parked = pool.take(key);
      const warm = parked && continuesWarm(parked, input, identity, items);
      if (parked && !warm) await parked.close();

      let steps: StepTiming[] = [];
      let session: WarmSession;
      let resume: (() => void) | undefined;
      let prompt = warm ? warm.prompt : undefined;
      if (parked && warm) {
        session = parked;
        const clientCall = session.process.clientCall;
        if (clientCall) {
          const result = clientResult(input, clientCall.toolCallId)!;
          session.process.clientCall = undefined;
          session.process.fromClient.add(clientCall.toolCallId);
          resume = () =>
            clientCall.resolve({
              content: [
                {
                  type: "text",
                  text: typeof result.output === "string" ? result.output : JSON.stringify(result.output ?? null),
                },
              ],
              isError: result.isError,
            });
        } else if (session.process.pending) {
          resume = await answerGate(session.process, input, emit);
          if (!resume) {
            pool.park(key, session);
            return { stopReason: "paused", steps };
          }
        }
      } else {
        const resumed = await resumeApprovals(input.messages, input.tools, emit, signal);
        if (resumed.paused) return { stopReason: "paused", steps: resumed.steps };
        steps = resumed.steps;
        session = await startSession(config, input, identity);
        prompt = flattenHistory(resumed.messages);
      }

      const mapper = new ClaudeEventMapper(
        {
          render: (name) => input.tools.byName.get(name)?.render,
          output: (id) => session.process.outputs.get(id),
          denied: (id) => session.process.denied.has(id),
          fromClient: (id) => session.process.fromClient.has(id),
        },
        steps,
      );
      const claude = session.process;
      const end = await drive(claude, input, emit, signal, mapper, resume ?? (() => claude.send(prompt!)));
      if (!ENDS_SESSION.has(end.stopReason)) {
        session.history = fingerprintOf([...items, ...mapper.toolCallIds.map((id) => `t:${id}`)]);
        pool.park(key, session);
      } else await session.close();
      if (end.error) emit({ type: "error", message: end.error });
      return { stopReason: end.stopReason, usage: end.usage, steps: mapper.steps };
    },
  };
}

/** A turn that ended this way leaves the process in no state to continue. */
const ENDS_SESSION = new Set(["error", "cancelled", "permission_required"]);

/**
 * Whether a parked session may take this turn: same template and credential, a history that
 * continues the one it saw, and then either new user text (sent as the prompt) or, for a session
 * parked at an approval or a client tool call, the answer to exactly that call and nothing else.
 */
function continuesWarm(
  parked: WarmSession,
  input: TurnInput,
  identity: string,
  items: string[],
): { prompt?: string } | undefined {
  if (parked.identity !== identity || !parked.process.alive) return undefined;
  const fresh = continuation(parked.history, items);
  if (!fresh) return undefined;
  const { pending, clientCall } = parked.process;
  if (pending) return !fresh.length && approvalAnswer(input, pending.toolCallId) ? {} : undefined;
  if (clientCall) return !fresh.length && clientResult(input, clientCall.toolCallId) ? {} : undefined;
  return fresh.length ? { prompt: fresh.join("\n\n") } : undefined;
}

async function startSession(config: Config, input: TurnInput, identity: string): Promise<WarmSession> {
  const workdir = await createWorkdir(config.dataDir, {
    settings: claudeSettings(input.template.harness.permissions),
    instructions: input.template.instructions.agents_md,
  });
  try {
    const claude = await ClaudeProcess.start({
      workdir,
      env: claudeEnv(
        input.connection,
        { home: workdir.home, tmp: workdir.tmp, maxRetries: input.limits.maxRetries },
        process.env,
      ),
      model: input.connection.model,
      tools: input.tools,
      maxTurns: input.limits.maxSteps,
      parkMs: config.externalHarness.idleMs + 60_000,
    });
    return { process: claude, identity, history: fingerprintOf([]), close: () => claude.close() };
  } catch (error) {
    await workdir.remove();
    throw error;
  }
}

/**
 * Reads Claude Code's messages for one turn until its `result`, a pause at the permission gate,
 * a stop, or the run's abort (which ends the process: a half-done turn cannot be parked).
 */
async function drive(
  claude: ClaudeProcess,
  input: TurnInput,
  emit: Emit,
  signal: AbortSignal,
  mapper: ClaudeEventMapper,
  start: () => void,
): Promise<TurnEnd> {
  let interrupt!: (end: TurnEnd) => void;
  const interrupted = new Promise<TurnEnd>((resolve) => (interrupt = resolve));
  const onAbort = () => interrupt({ stopReason: "cancelled" });
  signal.addEventListener("abort", onAbort, { once: true });
  claude.turn = {
    tools: input.tools,
    emit,
    pause: () => interrupt({ stopReason: "paused" }),
    stop: (stopReason, message) => interrupt({ stopReason, error: message }),
  };
  try {
    start();
    for (;;) {
      const next = await Promise.race([claude.read(), interrupted]);
      if ("stopReason" in next) {
        if (next.stopReason === "cancelled") await claude.close();
        return next;
      }
      claude.consumed();
      if (next.done) return { stopReason: "error", error: "Claude Code exited before the turn finished." };
      const { events, end } = mapper.map(next.value as { type: string });
      for (const event of events) emit(event);
      if (end) return end;
    }
  } catch (error) {
    if (signal.aborted) return { stopReason: "cancelled" };
    return {
      stopReason: "error",
      error: `Claude Code failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    };
  } finally {
    signal.removeEventListener("abort", onAbort);
    claude.turn = undefined;
  }
}

/**
 * The answer sent in this turn to the call a parked claude waits on, as the step that releases
 * it (run once the turn is driving the claude): a denial tells the model; an approval that
 * matches the pending request (same call, tool, arguments; unused) lets the call run once.
 * Anything else renews the request and returns nothing: the turn stays paused.
 */
async function answerGate(claude: ClaudeProcess, input: TurnInput, emit: Emit): Promise<(() => void) | undefined> {
  const pending = claude.pending!;
  const answer = approvalAnswer(input, pending.toolCallId)!;
  const approvals = input.tools.approvals;
  if (!answer.approved) {
    await approvals?.consume(answer.interactionToken, pending);
    claude.denied.add(pending.toolCallId);
    claude.pending = undefined;
    return () => pending.resolve({ behavior: "deny", message: DENIED_BY_USER });
  }
  if (approvals && (await approvals.consume(answer.interactionToken, pending))) {
    claude.approved.add(pending.toolCallId);
    claude.pending = undefined;
    return () => pending.resolve({ behavior: "allow", updatedInput: pending.input });
  }
  emit({ type: "tool_call", id: pending.toolCallId, name: pending.toolName, input: pending.input });
  if (approvals) {
    const request = await approvalRequest(approvals, pending);
    pending.approvalId = request.id;
    emit(request);
  }
  return undefined;
}

/** The caller's result for a client tool call (a tool_result that is not an approval answer). */
function clientResult(input: TurnInput, toolCallId: string): { output: unknown; isError: boolean } | undefined {
  for (const message of input.messages) {
    for (const block of message.content) {
      if (block.type === "tool_result" && block.toolCallId === toolCallId && block.approved === undefined)
        return { output: block.output, isError: block.isError === true };
    }
  }
  return undefined;
}

function approvalAnswer(
  input: TurnInput,
  toolCallId: string,
): { approved: boolean; interactionToken: string } | undefined {
  for (const message of input.messages) {
    for (const block of message.content) {
      if (
        block.type === "tool_result" &&
        block.toolCallId === toolCallId &&
        block.approved !== undefined &&
        block.interactionToken
      ) {
        return { approved: block.approved, interactionToken: block.interactionToken };
      }
    }
  }
  return undefined;
}

/** The template and the credential, hashed: the key never sits in the pool in clear. */
function identityOf(input: TurnInput): string {
  const { connection } = input;
  return createHash("sha256")
    .update(stableStringify(input.template))
    .update("\0")
    .update(
      stableStringify({
        deployment: connection.deployment,
        model: connection.model,
        baseUrl: connection.baseUrl ?? null,
        key: connection.apiKey ?? null,
      }),
    )
    .digest("hex");
}

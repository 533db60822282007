import { ConflictError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { NativeEvent } from "@/server/streams";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { driveRun } from "../runs/drive-run";
import { recordRunOnce } from "../runs/event-log";
import { PROCESS_LEASE_OWNER } from "../runs/live-runs";
import { findAgentRun } from "../runs/run-queries";
import { recordedRequest, type NewRun, type RunOrigin } from "../runs/run-store";
import { continuingTrace } from "../runs/run-lineage";
import { traceContext } from "../trace-context";
import { beginTurn } from "./begin-turn";
import { pausedRunAnswered } from "./invoke-agent";
import type { InvokeRequest } from "./invoke-request";
import { prepareTurn, type PrepareOptions } from "./prepare-turn";

export interface StartedRun {
  runId: string;
  sessionId: string;
  traceId: string;
  /** The paused run this run continues, when its input answers that run's approval requests (as invoke's). */
  continuesRunId?: string;
  /** With `attach`: the run's events as this process drives them, closed once its end is recorded. */
  events?: ReadableStream<NativeEvent>;
  /** A run of this id was recorded already (another start of the same id): this call started nothing. */
  startedBefore?: true;
}

/**
 * A turn nobody waits on (an automation firing): prepared like invoke's `flags.background`, recorded
 * as a durable run (event log, lease, takeover by the sweep) and answered once its row exists.
 * The body's messages are native; a refusal before the turn starts throws its own error.
 * `runs` carries a prompt application's sampling and name when the body holds it as an inline template,
 * and a split environment's sticky key (an A2A context id) when it is not the session.
 * `attach` (a door that answers as the run goes, A2A): answered with the driven events; the
 * client going away only detaches, the run stays durable.
 * Input that answers approval requests continues the paused run that issued them, as invoke's
 * does (server/agent-runs/runs/README.md, "Approval lineage"): its trace, usage and `continues_run_id`.
 * A run id is started at most once: the row is inserted before the turn begins (so its answer
 * waits for the row), and a start that finds it there (an id minted at a claim, started again
 * after its claimer seemed dead) begins nothing and answers that run, `startedBefore`.
 */
export async function startBackgroundRun(
  app: AppContext,
  principal: Principal,
  body: InvokeRequest,
  origin: RunOrigin,
  runId: string = newId(),
  runs: Pick<PrepareOptions, "sampling" | "agent" | "splitKey" | "claimedApprovals"> = {},
  attach = false,
): Promise<StartedRun> {
  const continues = await pausedRunAnswered(app, principal.projectId, body, "native");
  const trace = continuingTrace(traceContext(null), continues);
  const input = await prepareTurn(app, principal, body, "native", { ...runs, trace, depth: 0, runId });
  if (continues?.usage) input.priorUsage = continues.usage;
  const run: Omit<NewRun, "leaseOwner" | "leaseMs"> = {
    id: runId,
    projectId: principal.projectId,
    sessionId: input.sessionId,
    agent: input.agent,
    format: "native",
    messageId: `msg-${trace.traceId}`,
    traceId: trace.traceId,
    spanId: trace.spanId,
    background: true,
    origin,
    continuesRunId: continues?.id,
    request: recordedRequest(principal, body, input.sessionId, trace.parentSpanId, runs),
  };
  const leased = { ...run, leaseOwner: PROCESS_LEASE_OWNER, leaseMs: app.config.agentRuns.leaseMs };
  if (!(await recordRunOnce(app.db, leased))) return startedBefore(app, principal.projectId, runId);
  const turn = beginTurn(
    app,
    { ...input, door: origin },
    trace,
    undefined,
    continues ? (record) => ({ ...record, continuesRunId: continues.id }) : undefined,
  );
  const { events } = driveRun(
    app,
    turn,
    run,
    // Attached: the stream closes once the end is recorded, so a read after the answer finds the run ended.
    { cancelOnDisconnect: false, answerAfterEnd: attach, continuing: { lastSeq: 0 } },
  );
  const started = {
    runId,
    sessionId: input.sessionId,
    traceId: trace.traceId,
    ...(continues ? { continuesRunId: continues.id } : {}),
  };
  if (attach) return { ...started, events };
  void events.cancel();
  return started;
}

/** The run another start of the same id recorded. */
async function startedBefore(app: AppContext, projectId: string, runId: string): Promise<StartedRun> {
  const row = await findAgentRun(app.db, projectId, runId);
  if (!row) throw new ConflictError(`Run id ${runId} is already taken`, "duplicate");
  return {
    runId,
    sessionId: row.sessionId,
    traceId: row.traceId,
    ...(row.continuesRunId ? { continuesRunId: row.continuesRunId } : {}),
    startedBefore: true,
  };
}

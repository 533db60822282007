import type { Principal } from "@/server/auth";
import { AppError, BadRequestError, isAppError } from "@/server/core/errors";
import type { AppContext } from "@/server/core/app-context";
import { driveDoorTurn, prepareTurn, type InvokeRequest } from "@/server/agent-runs";
import { newId } from "@/server/core/ids";
import { traceContext, type TraceContext } from "@/server/agent-runs";
import type { NativeEvent, NativeMessage } from "@/server/streams";
import { SERVED_REVISION_HEADER, SPLIT_KEY_HEADER } from "@/server/versioning";
import { modelReferences, parseModelName } from "./model-name";
import { findPromptApplication, type PromptApplicationRun } from "./prompt-application";
import { asClientTools, type FunctionTool } from "./request-tools";

export interface DoorTurnRequest {
  model: string;
  messages: NativeMessage[];
  tools: FunctionTool[];
  sessionId?: string | null;
  /** The chat request's `user`: the sticky key of a split environment when there is no session. */
  user?: string | null;
  unattended?: "deny" | "fail" | null;
  /** A prompt application's placeholder values. */
  variables?: Record<string, string | number | boolean> | null;
}

export interface DoorTurn {
  events: ReadableStream<NativeEvent>;
  sessionId: string;
  trace: TraceContext;
  runId: string;
  /** The run's ids, as `/services/agent/v0/invoke` returns them. */
  headers: Record<string, string>;
}

/**
 * One agent run through the runner's own path (prepare, begin: traced), named by `model`, and
 * recorded as a run (origin `openai`: listed, its events and messages fetched by id, cancelled
 * like any run). As OpenAI does for a request that is not `background`, the client going away
 * cancels the run: an OpenAI client has no way to pick a stream up again. Nobody can answer an
 * approval over the OpenAI API, so a call the policy would ask about is refused
 * (`unattended: deny`) unless the caller chose `fail`.
 */
export async function startDoorTurn(
  app: AppContext,
  principal: Principal,
  request: Request,
  turn: DoorTurnRequest,
): Promise<DoorTurn> {
  const name = parseModelName(turn.model);
  const trace = traceContext(request.headers.get("traceparent"));
  const body: InvokeRequest = {
    session_id: turn.sessionId ?? undefined,
    references: modelReferences(name),
    flags: { unattended: turn.unattended ?? "deny" },
    data: { inputs: { messages: turn.messages } },
  };
  const runId = newId();
  // `agent@environment` with a split: the caller's key, else the session, else the user stays on one revision.
  const splitKey = request.headers.get(SPLIT_KEY_HEADER) ?? turn.sessionId ?? turn.user ?? undefined;
  const options = { trace, depth: 0, runId, clientTools: asClientTools(turn.tools), splitKey };
  let input;
  let application: PromptApplicationRun | undefined;
  try {
    input = await prepareTurn(app, principal, body, "native", options);
  } catch (error) {
    // No agent by that name (or the environment runs an application under it): a prompt application may have it.
    application = isNotFound(error)
      ? await findPromptApplication(app.db, principal, name, turn.variables ?? {})
      : undefined;
    if (!application) throw asModelError(error, turn.model);
    const run: InvokeRequest = {
      ...body,
      references: undefined,
      data: {
        inputs: { messages: [...application.messages, ...turn.messages] },
        parameters: { agent: application.template },
      },
    };
    input = await prepareTurn(app, principal, run, "native", {
      ...options,
      sampling: application.sampling,
      agent: application.agent,
    });
  }
  if (!application && turn.variables && Object.keys(turn.variables).length) {
    await input.release?.();
    throw new BadRequestError(
      `variables: model "${turn.model}" is an agent, which has no {{name}} placeholders; variables fill a prompt application's`,
      "variables_not_used",
      [{ path: "variables", message: "not used by an agent" }],
    );
  }
  const { events } = driveDoorTurn(
    app,
    input,
    trace,
    { id: runId, projectId: principal.projectId, origin: "openai" },
    request.signal,
  );
  return {
    events,
    sessionId: input.sessionId,
    trace,
    runId,
    headers: {
      ...input.controls?.headers,
      "x-svc-run-id": runId,
      "x-svc-session-id": input.sessionId,
      "x-svc-trace-id": trace.traceId,
      ...(input.agent.references?.workflow_revision && {
        [SERVED_REVISION_HEADER]: input.agent.references.workflow_revision.id,
      }),
      traceparent: `00-${trace.traceId}-${trace.spanId}-01`,
    },
  };
}

const isNotFound = (error: unknown): error is AppError => isAppError(error) && error.status === 404;

/** A model that names nothing in the caller's project is OpenAI's `model_not_found`, on `model`. */
function asModelError(error: unknown, model: string): unknown {
  if (!isNotFound(error)) return error;
  return new AppError(
    404,
    "model_not_found",
    `model "${model}" cannot be run: ${error.message}. GET /v1/models lists what this key can call`,
    [{ path: "model", message: "not found" }],
  );
}

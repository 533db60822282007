import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import {
  A2AError,
  ExtendedAgentCardNotConfiguredError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import { A2A_LEGACY_PROTOCOL_VERSION } from "@a2a-js/sdk/compat/v0_3";
import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import {
  cancelRun,
  findAgentRunSoon,
  followRun,
  readRunEvents,
  startBackgroundRun,
  type InvokeRequest,
} from "@/server/agent-runs";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { isAppError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { ExposedEntry } from "@/server/exposure";
import type { NativeEvent } from "@/server/streams";
import { isTerminal } from "./a2a-shapes";
import { contextHistory } from "./context-history";
import { exposedReferences } from "./exposed-agent";
import { messageInput } from "./message-input";
import { checkPushConfig, PushConfigStore, type CheckedPushConfig } from "./push-config-store";
import { runToTask, taskState, type TaskRun } from "./run-to-task";
import { finalStatus, TaskEventProjection, taskUpdate } from "./task-events";

/**
 * One exposed agent as an A2A agent, for one caller. A task is a durable background run of the
 * agent (origin `a2a`, the task id is the run id, the context id its session): it goes through
 * invoke's path (prepare, controls, canary split sticky on the context, trace, event log, lease),
 * survives its client and is taken over by another instance when its own dies. Every read
 * follows the run's log, so any instance answers for any task.
 */
export class TaskHandler implements A2ARequestHandler {
  constructor(
    private readonly app: AppContext,
    private readonly principal: Principal,
    private readonly target: ExposedEntry,
    private readonly card: AgentCard,
  ) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError("This agent has one card, served to the project's keys");
  }

  async sendMessage(params: SendMessageRequest, context?: ServerCallContext): Promise<Message | Task> {
    const historyLength = params.configuration?.historyLength;
    // A task answered at once is read from its row: the client holds its id only once it is durable.
    if (params.configuration?.returnImmediately) {
      const started = await this.start(params, false, context);
      await started.pushConfigSaved;
      return this.task(started.opening.id, historyLength);
    }
    const started = await this.start(params, true, context);
    // The events as this instance drives them (no wait for the log); the stream closes once the end is recorded.
    const events: NativeEvent[] = [];
    for await (const event of started.events! as unknown as AsyncIterable<NativeEvent>) events.push(event);
    await started.pushConfigSaved;
    return this.ended(started.opening.id, events, historyLength);
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context?: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const started = await this.start(params, true, context);
    yield taskUpdate(runToTask(started.opening, []));
    const projection = new TaskEventProjection({ taskId: started.opening.id, contextId: started.opening.sessionId });
    const events: NativeEvent[] = [];
    const reader = started.events!.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        events.push(next.value);
        yield* projection.next(next.value);
      }
    } finally {
      // A client going away only detaches: the run is durable and its task stays readable.
      void reader.cancel();
    }
    await started.pushConfigSaved;
    yield finalStatus(await this.ended(started.opening.id, events));
  }

  async getTask(params: GetTaskRequest): Promise<Task> {
    return this.task(params.id, params.historyLength);
  }

  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    const run = await this.run(params.id);
    if (isTerminal(taskState(run))) throw new TaskNotCancelableError(`Task ${run.id} has already ended`);
    await cancelRun(this.app, this.principal.projectId, run.id);
    return this.task(run.id);
  }

  async *resubscribe(params: SubscribeToTaskRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const run = await this.run(params.id);
    if (isTerminal(taskState(run)))
      throw new UnsupportedOperationError(`Task ${run.id} has ended: tasks/get answers it`);
    yield* this.follow(run.id);
  }

  async listTasks(): Promise<ListTasksResponse> {
    throw new UnsupportedOperationError(
      "Listing tasks is not served: GET /services/agent/v0/runs?origin=a2a lists them",
    );
  }

  /** Sets (or replaces) a config of a task: answered once with its token in full (generated when none was given). */
  async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context?: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const run = await this.run(params.taskId);
    // The SDK's store contract: the config passed in learns its id (and here its token) from the save.
    const config = { ...params, taskId: run.id };
    await this.pushConfigs(context).save(run.id, context, config);
    return config;
  }

  async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context?: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const run = await this.run(params.taskId);
    const config = (await this.pushConfigs(context).load(run.id)).find((c) => c.id === params.id);
    if (!config) throw new TaskNotFoundError(`Task ${run.id} has no push notification config "${params.id}"`);
    return config;
  }

  async listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context?: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const run = await this.run(params.taskId);
    // A task has few configs: one page.
    return { configs: await this.pushConfigs(context).load(run.id), nextPageToken: "" };
  }

  async deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context?: ServerCallContext,
  ): Promise<void> {
    const run = await this.run(params.taskId);
    await this.pushConfigs(context).delete(run.id, context, params.id);
  }

  /** The project's configs; a config remembers the protocol it was set over, which its pushes are written in. */
  private pushConfigs(context?: ServerCallContext): PushConfigStore {
    return new PushConfigStore(
      this.app,
      this.principal.projectId,
      context?.requestedVersion || A2A_LEGACY_PROTOCOL_VERSION,
    );
  }

  /**
   * Starts the task's run. Attached: its events as this instance drives them, and the task as it
   * opens (built here, not read back: the row is written with the log's first batch); detached: once
   * its row exists. A refusal before it starts (limits, budget, a missing key) is the caller's error.
   */
  private async start(
    params: SendMessageRequest,
    attach: boolean,
    context?: ServerCallContext,
  ): Promise<{ opening: TaskRun; events?: ReadableStream<NativeEvent>; pushConfigSaved?: Promise<unknown> }> {
    // Checked before the run starts: a refused config starts nothing. The answer is the task, so
    // no generated token could be shown: a config given here brings its own.
    const given = params.configuration?.taskPushNotificationConfig;
    const pushConfig = given ? checkPushConfig(this.app, given, false) : undefined;
    const input = messageInput(params.message);
    const contextId = input.contextId ?? newId();
    const history = input.contextId ? await contextHistory(this.app.db, this.principal.projectId, contextId) : [];
    const body: InvokeRequest = {
      session_id: contextId,
      references: exposedReferences(this.target),
      // Nobody can answer an approval over A2A: a call the policy would ask about is refused and the model told.
      flags: { unattended: "deny" },
      data: { inputs: { messages: [...history, { role: "user", content: input.text }] } },
    };
    try {
      const started = await startBackgroundRun(
        this.app,
        this.principal,
        body,
        "a2a",
        newId(),
        { splitKey: contextId },
        attach,
      );
      const opening: TaskRun = {
        id: started.runId,
        sessionId: started.sessionId,
        status: "running",
        stopReason: null,
        error: null,
        traceId: started.traceId,
        createdAt: new Date(),
        endedAt: null,
        request: { body },
      };
      return {
        opening,
        events: started.events,
        ...(pushConfig ? { pushConfigSaved: this.saveStartConfig(started.runId, pushConfig, context) } : {}),
      };
    } catch (error) {
      throw asA2AError(error);
    }
  }

  /**
   * Saves the config a message started its task with, once the run's row exists (it is written
   * with the log's first batch). Awaited before the answer; a client that went away meanwhile
   * does not stop it.
   */
  private saveStartConfig(runId: string, config: CheckedPushConfig, context?: ServerCallContext): Promise<unknown> {
    const saved = findAgentRunSoon(this.app.db, this.principal.projectId, runId).then((row) => {
      if (!row)
        throw new A2AError({ message: `Task ${runId} was not recorded: its push notification config was not saved` });
      return this.pushConfigs(context).saveChecked(runId, config);
    });
    saved.catch(() => {});
    return saved;
  }

  /** The task of a run this instance drove to its end: its row (status, error) and the events it saw. */
  private async ended(id: string, events: NativeEvent[], historyLength?: number): Promise<Task> {
    const run = await this.run(id);
    return runToTask(run, run.status === "running" ? [] : events, historyLength);
  }

  /** The task's updates from its first event to its end: the task, the answer's chunks, the final status. */
  private async *follow(runId: string): AsyncGenerator<StreamResponse, void, undefined> {
    const run = await this.run(runId);
    const opening = runToTask({ ...run, status: "running" }, []);
    yield taskUpdate(opening);
    const projection = new TaskEventProjection({ taskId: run.id, contextId: run.sessionId });
    const reader = followRun(this.app.db, run.id).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        yield* projection.next(value.event);
      }
    } finally {
      void reader.cancel();
    }
    yield finalStatus(await this.task(run.id));
  }

  private async task(id: string, historyLength?: number): Promise<Task> {
    const run = await this.run(id);
    const events = run.status === "running" ? [] : (await readRunEvents(this.app.db, run.id)).map((e) => e.event);
    return runToTask(run, events, historyLength);
  }

  /** A task of this agent in the caller's project; any other run (another door's, agent's or project's) is not found. */
  private async run(id: string): Promise<TaskRun> {
    if (!id) throw new RequestMalformedError("The task id is required");
    const row = await findAgentRunSoon(this.app.db, this.principal.projectId, id);
    const references = (row?.request as { body?: InvokeRequest } | null)?.body?.references;
    if (
      !row ||
      row.origin !== "a2a" ||
      references?.workflow?.slug !== this.target.slug ||
      references?.environment?.slug !== this.target.environment
    )
      throw new TaskNotFoundError(`No task ${id} of ${this.target.name}`);
    return row;
  }
}

/**
 * A refusal of the service (404 agent, 402 budget, 429 limit, 422 template) as an A2A error: the
 * message a person can act on, the service's code and status in the error's metadata.
 */
function asA2AError(error: unknown): unknown {
  if (!isAppError(error)) return error;
  const options = { message: error.message, metadata: { code: error.code, status: String(error.status) } };
  return error.status === 400 || error.status === 422 ? new RequestMalformedError(options) : new A2AError(options);
}

export {
  CORE_BASE_PROMPT,
  coreHarness,
  externalSessions,
  GETTING_STARTED_SKILL,
  harnessFor,
  harnessRefusal,
  SERVICE_BASE_PROMPT,
  systemPrompt,
} from "./harnesses";
export {
  invokeAgent,
  invokeRequestSchema,
  prepareTurn,
  resolveAgent,
  TURN_ERROR_CODES,
  type InvokeRequest,
  type ResolvedAgent,
} from "./invoke";
export {
  languageModel,
  resolveConnection,
  resolveModelName,
  systemPromptParts,
  type ResolvedConnection,
} from "./providers";
export { onRunFinished } from "./run-listeners";
export type { Harness, HarnessOutcome, RunLimits, RunRecord, Sampling, StepTiming, TurnInput } from "./run-types";
export { agentRunRoutes } from "./routes";
export { startTurn, type TurnHandle } from "./start-turn";
export { defaultToolRegistry, ToolRegistry, type RegisteredTool, type ToolFactory } from "./tools";
export { traceContext, type TraceContext } from "./trace-context";
export {
  connectedProviders,
  testStoredConnection,
  EMBEDDING_PROVIDERS,
  embeddingModel,
  runnableModels,
  startingModel,
  type CustomProviderModels,
  type RunnableModels,
} from "./providers";
export { beginTurn, driveDoorTurn, startBackgroundRun, type StartedRun } from "./invoke";
export { type RunAgent } from "./run-types";
export { nodeRuntime, pythonProgram, pythonRuntime, PYTHON_HEAP_MB, RESULT_MARKER, type CodeLimits } from "./tools";
export { tracedModelCall, type ModelCall, type ModelCallResult, type ModelRequest } from "./traced-model-call";
export { runSweepWorker } from "./runs/run-sweep";
export { drivenRunsEnded, liveRunRowsWritten } from "./runs/live-runs";
export { RUN_ORIGINS, RUN_STATUSES, type RunOrigin, type RunStatus } from "./runs/run-store";
export { findAgentRunSoon, listRuns, readRunEvents } from "./runs/run-queries";
export { followRun, type LoggedEvent } from "./runs/follow-run";
export { driveRun } from "./runs/drive-run";
export { messagesOfEvents } from "./runs/takeover-plan";
export { cancelRun } from "./runs/cancel-run";
export { runToWire, type RunWire } from "./runs/wire";
export {
  deleteRunLogsBefore,
  deleteRunsBefore,
  eraseRuns,
  runsLinkedTo,
  runsStartedBy,
  type LinkedRuns,
} from "./runs/erase-runs";
export { eraseToolApprovals } from "./permissions/erase-approvals";
export { runIsRunning, runStates, type RunState } from "./runs/run-states";

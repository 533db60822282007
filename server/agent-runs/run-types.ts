import type { Cost, PriceOverride, TokenUsage } from "@/server/pricing";
import type { AgentTemplate } from "@/server/agent-template";
import type { NativeEvent, NativeMessage, RunUsage } from "@/server/streams";
import type { TurnControls } from "@/server/controls";
import type { ResolvedConnection } from "./providers/connection";
import type { FallbackAttempt } from "./providers/fallback-model";
import type { RunAgent } from "./run-agent";
import type { Sampling } from "./sampling";
import type { RunOrigin } from "./runs/run-store";
import type { BuiltTools } from "./tools/tool-types";

export type { RunAgent, Sampling };

export interface RunLimits {
  totalMs: number;
  firstTokenMs: number;
  idleMs: number;
  maxSteps: number;
  /** Retries of a model call that failed before streaming (429, 5xx), with the SDK's backoff. */
  maxRetries: number;
}

/** Everything a harness needs for one turn; resolved and validated before the first byte. */
export interface TurnInput {
  projectId: string;
  /** The API key that started the run (none from the playground's session): its spans carry it. */
  apiKeyId?: string;
  agent: RunAgent;
  template: AgentTemplate;
  messages: NativeMessage[];
  connection: ResolvedConnection;
  tools: BuiltTools;
  sessionId: string;
  limits: RunLimits;
  /** Events the turn opens with, before the model's (a best_effort sandbox's unapplied boundaries). */
  notices?: NativeEvent[];
  /** Values masked in the run's trace besides the provider key (MCP header secrets). */
  secrets?: string[];
  /** Frees what the turn holds open (MCP clients); the engine calls it once the turn has ended. */
  release?: () => Promise<void>;
  /** Applied by the core harness to every model call of the turn. */
  sampling?: Sampling;
  /** Signalled (`activity` events) by work a tool does for the turn, a nested run's events: the idle limit counts it as life. */
  activity?: EventTarget;
  /**
   * The model alias the template named: its entries' connections in the order they are tried
   * (the first is `connection`), and how long an entry has to send its first part.
   */
  alias?: { name: string; connections: ResolvedConnection[]; attemptTimeoutMs: number };
  /** Budgets and token limits the turn counts against (server/controls). */
  controls?: TurnControls;
  /** The project's own model prices as the turn began (server/pricing): each model call is costed with them. */
  prices?: PriceOverride[];
  /** The usage of the paused run this turn continues: the turn's usage is the sum of both halves' steps. */
  priorUsage?: RunUsage;
  /** The door the turn came through (the run's origin), recorded on its root span. */
  door?: RunOrigin;
}

export interface StepTiming {
  index: number;
  /** Approved tool calls run before the model is called (server/agent-runs/permissions): no model call of its own. */
  approvals?: boolean;
  /** A model call in flight when the process running it died (the run was taken over). */
  interrupted?: boolean;
  startedAt: number;
  endedAt?: number;
  finishReason?: string;
  /** Who answered, when the turn's model is an alias (each step may land on another entry). */
  provider?: string;
  model?: string;
  /** An alias's tries before this step's answer, and why each moved on. */
  attempts?: FallbackAttempt[];
  /** This model call's tokens, by kind. */
  usage?: TokenUsage;
  /** What the call cost (or why it has no price), set when the turn ends. */
  cost?: Cost;
  /** The text the model wrote in this step (for the trace's output messages). */
  text?: string;
  toolCalls: Array<{
    id: string;
    name: string;
    input?: unknown;
    output?: unknown;
    startedAt: number;
    endedAt?: number;
    isError?: boolean;
    approved?: boolean;
    /** Running when its process died: no result was recorded (the run was taken over). */
    interrupted?: boolean;
    /** What the `execute_tool` span id derives from, when not the call id (an interrupted attempt run again). */
    spanKey?: string;
  }>;
}

/** What a harness reports when its turn ends; the engine adds the error, usage and done events. */
export interface HarnessOutcome {
  stopReason: string;
  usage?: { input: number; output: number; total: number };
  steps: StepTiming[];
  /** Why the turn failed (a provider failure as runErrorMessage words it); the engine emits and records it. */
  error?: string;
  /** The history the model saw, when it differs from the input (approvals settled into real tool results). */
  messages?: NativeMessage[];
}

export type Emit = (event: NativeEvent) => void;

export interface Harness {
  run(input: TurnInput, emit: Emit, signal: AbortSignal): Promise<HarnessOutcome>;
}

/**
 * The finished run as the tracing issue will record it (`invoke_agent` > `turn` > `chat` /
 * `execute_tool`): ids, timings per step and tool call, usage, outcome. Times are epoch ms.
 */
export interface RunRecord {
  projectId: string;
  /** The API key that started the run: recorded on its spans (`ag.meta.api_key.id`), what analytics groups by. */
  apiKeyId?: string;
  agent: RunAgent;
  /** The turn's input messages, for the trace (its `turn N` counts the user messages). */
  messages: NativeMessage[];
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  sessionId: string;
  provider: string;
  model: string;
  harness: string;
  startedAt: number;
  endedAt: number;
  stopReason: string;
  usage?: RunUsage;
  steps: StepTiming[];
  error?: string;
  /** Names of the template's skills and MCP servers (the root span lists what the run had). */
  skills?: string[];
  mcpServers?: string[];
  /** The paused run this run continues (its input answered that run's approval requests). */
  continuesRunId?: string;
  /** The door the run came through (`ag.meta.run.door` on the root span): invoke, mcp, a2a, openai ... */
  door?: RunOrigin;
  /** When the run was taken over after its process died, and what was in flight then. */
  takeovers?: RunTakeover[];
}

export interface RunTakeover {
  at: number;
  /** Tool calls that were running: their results were never recorded. */
  interrupted: string[];
  /** Blocks of the model step that was being written. */
  discarded: string[];
}

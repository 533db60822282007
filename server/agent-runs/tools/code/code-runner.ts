import type { Sandbox } from "@/server/sandbox";

/** Per call: the time limit (SANDBOX_COMMAND_TIMEOUT_MS) and the memory cap (CODE_TOOL_MEMORY_MB). */
export interface CodeLimits {
  timeoutMs: number;
  memoryMb: number;
}

/** One call of a code tool, its arguments already checked against `input_schema`. */
export interface CodeCall {
  script: string;
  input: unknown;
  /** The tool's vault secrets by environment name, for this call only. */
  env: Record<string, string>;
  limits: CodeLimits;
  signal?: AbortSignal;
  sandbox?: Sandbox;
}

/** Resolves with main's return value (JSON-shaped) or rejects with the message the model sees. */
export type CodeRun = (call: CodeCall) => Promise<unknown>;

/** What the factory needs to know about a `runtime`: how a call runs and what it requires. */
export interface CodeRuntime {
  run: CodeRun;
  /** Programs run in the session's sandbox; QuickJS needs none. */
  needsSandbox: boolean;
  /** Why this runtime cannot honour the limits in this sandbox, when it cannot (refused before the run). */
  refusal?: (limits: CodeLimits, sandbox?: Sandbox) => string | undefined;
}

import type { SandboxKind } from "@/server/agent-template";

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** For one command only: a code tool's secrets and arguments, and its memory cap. */
export interface ExecOptions {
  env?: Record<string, string>;
  stdin?: string;
  /** Honoured where `capsCommandMemory` is true. */
  memoryMb?: number;
}

/** What is at a path once symlinks are followed. */
export interface PathInfo {
  realPath: string;
  directory: boolean;
}

/** The file operations the built-in tools need, whatever the sandbox keeps its files in. */
export interface SandboxFiles {
  /** null when nothing is at `path`. */
  lookup(path: string): Promise<PathInfo | null>;
  readFile(path: string): Promise<string>;
  writeFile(path: string, content: string): Promise<void>;
  /** Creates the folder and its parents; an existing folder is fine. */
  mkdir(path: string): Promise<void>;
  /** Removes a file or a whole folder; nothing there is fine. */
  remove(path: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
}

/**
 * A session's sandbox, whichever provider runs it (`local`: just-bash in this process;
 * `daytona_sandbox`: a Daytona sandbox). Tools see only this; both keep the session's files
 * under WORKSPACE_ROOT and open lazily, on the first tool call of a turn.
 */
export interface Sandbox {
  readonly kind: SandboxKind;
  /** How the `bash` tool describes the shell to the model. */
  readonly shell: string;
  /** Whether `exec` can cap one command's memory (`ExecOptions.memoryMb`). */
  readonly capsCommandMemory: boolean;
  /**
   * Runs tool bodies one at a time, in call order: the AI SDK starts the calls of one step
   * together, and `write` then `edit` of the same file must not race.
   */
  serial<T>(task: () => Promise<T>): Promise<T>;
  files(): Promise<SandboxFiles>;
  /** Runs a bash command line in the workspace; a timeout is exit code 124. */
  exec(command: string, signal?: AbortSignal, options?: ExecOptions): Promise<CommandResult>;
  /** Makes the workspace outlive the turn (local: saves it; hosted: its disk already does). */
  persist(): Promise<void>;
}

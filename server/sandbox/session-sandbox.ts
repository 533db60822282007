import { posix } from "node:path";
import { Bash, InMemoryFs, type SecureFetch } from "just-bash";
import type { Database } from "@/server/db";
import { loadWorkspace, saveWorkspace, type WorkspaceLimits } from "./workspace-store";
import { restoreWorkspace, snapshotWorkspace, WORKSPACE_ROOT, type SnapshotEntry } from "./workspace-snapshot";

export interface SandboxOptions {
  db: Database;
  projectId: string;
  sessionId: string;
  limits: WorkspaceLimits & { commandTimeoutMs: number };
  /** The network the shell may use (`curl`); absent: none (server/sandbox/sandbox-network.ts). */
  fetch?: SecureFetch;
  /** Files the template puts in the workspace (skills), laid on every open. */
  seed?: WorkspaceSeed;
}

/** A file laid in the workspace from the template; `path` is relative to WORKSPACE_ROOT. */
export interface SeedFile {
  path: string;
  content: string;
  mode: number;
}

export interface WorkspaceSeed {
  /** Folders (relative to WORKSPACE_ROOT) the template owns: emptied, then filled with `files`. */
  folders: string[];
  files: SeedFile[];
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * The `local` sandbox of one session: `just-bash` (a bash interpreter written in TypeScript) over
 * an in-memory file system, with its CPython-in-WebAssembly `python3`. No host file is mounted and no host process is spawned, so the only
 * files a tool can see are the session's own under /workspace, loaded from the database on first
 * use and saved back after every call that may have changed them.
 */
export class SessionSandbox {
  private fs = new InMemoryFs();
  private bash: Bash;
  private saved: SnapshotEntry[] = [];
  private opened?: Promise<void>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SandboxOptions) {
    this.bash = this.shell();
  }

  /** Loads the stored workspace once; every tool call awaits it. */
  open(): Promise<void> {
    this.opened ??= (async () => {
      const { db, projectId, sessionId, limits } = this.options;
      this.saved = await loadWorkspace(db, projectId, sessionId, limits);
      await restoreWorkspace(this.fs, this.saved);
      if (this.options.seed) await this.lay(this.options.seed);
    })();
    return this.opened;
  }

  /**
   * Runs tool bodies one at a time, in call order: the AI SDK starts the calls of one step
   * together, and `write` then `edit` of the same file must not race (nor their saves).
   */
  serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The file system tools use directly; paths resolve inside the virtual tree only. */
  async files(): Promise<InMemoryFs> {
    await this.open();
    return this.fs;
  }

  /** `env` and `stdin` hold for this command only (a code tool's secrets and arguments). */
  async exec(command: string, signal?: AbortSignal, extra: { env?: Record<string, string>; stdin?: string } = {}): Promise<CommandResult> {
    await this.open();
    const timeout = AbortSignal.timeout(this.options.limits.commandTimeoutMs);
    const result = await this.bash.exec(command, { ...extra, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    if (timeout.aborted) return { stdout: result.stdout, stderr: `${result.stderr}command stopped after ${this.options.limits.commandTimeoutMs} ms (SANDBOX_COMMAND_TIMEOUT_MS)\n`, exitCode: 124 };
    return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
  }

  /**
   * Saves the workspace. Over the size cap, the workspace goes back to its last saved state and
   * the call fails, so a turn can never leave more than the cap behind.
   */
  async persist(): Promise<void> {
    await this.open();
    const { db, projectId, sessionId, limits } = this.options;
    const { entries, sizeBytes } = await snapshotWorkspace(this.fs);
    if (sizeBytes > limits.maxBytes) {
      this.fs = new InMemoryFs();
      this.bash = this.shell();
      await restoreWorkspace(this.fs, this.saved);
      throw new Error(`the workspace would hold ${sizeBytes} bytes, over its cap of ${limits.maxBytes} (SANDBOX_WORKSPACE_MAX_BYTES); the change was undone`);
    }
    await saveWorkspace(db, projectId, sessionId, entries, sizeBytes);
    this.saved = entries;
  }

  /**
   * The template's files win over the stored workspace: an owned folder is emptied first, so a
   * file removed from the template (or edited in the workspace) does not outlive the turn.
   */
  private async lay(seed: WorkspaceSeed): Promise<void> {
    for (const folder of seed.folders) await this.fs.rm(posix.join(WORKSPACE_ROOT, folder), { recursive: true, force: true });
    for (const file of seed.files) {
      const path = posix.join(WORKSPACE_ROOT, file.path);
      await this.fs.mkdir(posix.dirname(path), { recursive: true });
      await this.fs.writeFile(path, file.content);
      await this.fs.chmod(path, file.mode);
    }
  }

  private shell(): Bash {
    // python3's own limit (30 s by default) follows ours, so SANDBOX_COMMAND_TIMEOUT_MS holds either way.
    const executionLimits = { maxPythonTimeoutMs: this.options.limits.commandTimeoutMs };
    return new Bash({ fs: this.fs, cwd: WORKSPACE_ROOT, env: { HOME: WORKSPACE_ROOT }, fetch: this.options.fetch, python: true, executionLimits });
  }
}

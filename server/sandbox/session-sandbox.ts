import { Bash, InMemoryFs, type SecureFetch } from "just-bash";
import type { Database } from "@/server/db";
import type { CommandResult, ExecOptions, Sandbox, SandboxFiles } from "./sandbox";
import { laySeed, type WorkspaceSeed } from "./workspace-seed";
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
  /** The clock the workspace's idle expiry is read and stamped by: the app's (`context.now`); the system clock if absent. */
  now?: () => Date;
}

/**
 * The `local` sandbox of one session: `just-bash` (a bash interpreter written in TypeScript) over
 * an in-memory file system, with its CPython-in-WebAssembly `python3`. No host file is mounted and no host process is spawned, so the only
 * files a tool can see are the session's own under /workspace, loaded from the database on first
 * use and saved back after every call that may have changed them.
 */
export class SessionSandbox implements Sandbox {
  readonly kind = "local" as const;
  readonly shell =
    "a virtual shell: coreutils, grep, sed, awk, jq, find, tar; no host programs, no network unless the sandbox allows it";
  /** just-bash's python heap is fixed (see python-runner.ts); node code tools do not run here. */
  readonly capsCommandMemory = false;
  private fs = new InMemoryFs();
  /** Built on the first command: most turns call no built-in, and a shell costs milliseconds of CPU to build. */
  private bash?: Bash;
  private saved: SnapshotEntry[] = [];
  private opened?: Promise<void>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SandboxOptions) {}

  /** Loads the stored workspace once; every tool call awaits it. */
  open(): Promise<void> {
    this.opened ??= (async () => {
      const { db, projectId, sessionId, limits } = this.options;
      this.saved = await loadWorkspace(db, projectId, sessionId, limits, this.options.now?.());
      await restoreWorkspace(this.fs, this.saved);
      if (this.options.seed) await laySeed(inMemoryFiles(this.fs), this.options.seed);
    })();
    return this.opened;
  }

  serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Paths resolve inside the virtual tree only. */
  async files(): Promise<SandboxFiles> {
    await this.open();
    return inMemoryFiles(this.fs);
  }

  /** `env` and `stdin` hold for this command only (a code tool's secrets and arguments). */
  async exec(command: string, signal?: AbortSignal, options: ExecOptions = {}): Promise<CommandResult> {
    await this.open();
    const extra = { env: options.env, stdin: options.stdin };
    const timeout = AbortSignal.timeout(this.options.limits.commandTimeoutMs);
    this.bash ??= this.newShell();
    const result = await this.bash.exec(command, {
      ...extra,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (timeout.aborted)
      return {
        stdout: result.stdout,
        stderr: `${result.stderr}command stopped after ${this.options.limits.commandTimeoutMs} ms (SANDBOX_COMMAND_TIMEOUT_MS)\n`,
        exitCode: 124,
      };
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
      this.bash = undefined;
      await restoreWorkspace(this.fs, this.saved);
      throw new Error(
        `the workspace would hold ${sizeBytes} bytes, over its cap of ${limits.maxBytes} (SANDBOX_WORKSPACE_MAX_BYTES); the change was undone`,
      );
    }
    await saveWorkspace(db, projectId, sessionId, entries, sizeBytes, this.options.now?.());
    this.saved = entries;
  }

  private newShell(): Bash {
    // python3's own limit (30 s by default) follows ours, so SANDBOX_COMMAND_TIMEOUT_MS holds either way.
    const executionLimits = { maxPythonTimeoutMs: this.options.limits.commandTimeoutMs };
    return new Bash({
      fs: this.fs,
      cwd: WORKSPACE_ROOT,
      env: { HOME: WORKSPACE_ROOT },
      fetch: this.options.fetch,
      python: true,
      executionLimits,
    });
  }
}

/** The just-bash file system seen through the tools' interface. */
function inMemoryFiles(fs: InMemoryFs): SandboxFiles {
  return {
    async lookup(path) {
      if (!(await fs.exists(path))) return null;
      const realPath = await fs.realpath(path);
      return { realPath, directory: (await fs.stat(realPath)).isDirectory };
    },
    readFile: (path) => fs.readFile(path),
    writeFile: (path, content) => fs.writeFile(path, content),
    mkdir: (path) => fs.mkdir(path, { recursive: true }),
    remove: (path) => fs.rm(path, { recursive: true, force: true }),
    chmod: (path, mode) => fs.chmod(path, mode),
  };
}

/**
 * tools: `bash` and `read` tool calls per second through the session sandbox, and the cold start
 * of a session workspace, each next to the same work in a bare `just-bash` instance, in
 * alternating rounds (the median of the rounds' ratios is the figure).
 *
 *   npm run bench -- tools [--rounds 5] [--calls 100] [--starts 20] [--files 20]
 *
 * Ours is the path a turn takes: the tool registry builds the built-ins with the run's permission
 * policy, and each call goes through the tool's execute (policy gate, serial queue, result cap).
 * Two shapes: `one_turn` keeps one SessionSandbox for all the calls (a turn making many calls:
 * the workspace is loaded once, `bash` saves it to the database after every call), `turn_per_call`
 * opens a new SessionSandbox per call (a turn making one call: load, call, save). Bare is one
 * `new Bash()` over its in-memory file system holding the same files: `bash.exec(command)` and
 * `fs.readFile(path)`. Cold start: a new session's first call (an empty workspace read from the
 * database, the shell built, `echo ok` run, the workspace saved) against `new Bash()` + the same
 * command. Uses PGlite in memory, or PostgreSQL with DATABASE_URL.
 */
import { randomUUID } from "node:crypto";
import type { ToolExecutionOptions } from "ai";
import { Bash, InMemoryFs } from "just-bash";
import type { ToolEntry } from "@/server/agent-template";
import { defaultToolRegistry } from "@/server/agent-runs";
import { restoreWorkspace, saveWorkspace, SessionSandbox, snapshotWorkspace } from "@/server/sandbox";
import { loadAverage, log, machine, parseFlags } from "../lib/benchmark";
import { createTestApp } from "../../tests/helpers/test-app";

const COMMAND = "wc -l notes.txt && echo done > last.txt";
const READ_PATH = "notes.txt";
const round3 = (n: number) => Number(n.toFixed(3));
/** Ratios span orders of magnitude (a database round trip against an in-memory read): 3 significant digits. */
const significant3 = (n: number) => Number(n.toPrecision(3));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

interface Workload {
  bash(): Promise<void>;
  read(): Promise<void>;
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const flags = parseFlags(argv);
  const rounds = Number(flags.rounds ?? 5);
  const calls = Number(flags.calls ?? 100);
  const starts = Number(flags.starts ?? 20);
  const fileCount = Number(flags.files ?? 20);
  const loadBefore = loadAverage();

  const app = await createTestApp();
  const { projectId } = await app.newProject();
  const files = seedFiles(fileCount);
  const limits = {
    maxBytes: app.context.config.sandbox.workspaceMaxBytes,
    idleMs: app.context.config.sandbox.workspaceIdleMs,
    commandTimeoutMs: app.context.config.sandbox.commandTimeoutMs,
  };
  const registry = defaultToolRegistry();
  const toolEntries = [
    { type: "builtin", name: "bash" },
    { type: "builtin", name: "read" },
  ] as ToolEntry[];
  const sessionId = "bench-tools";
  await saveWorkspace(app.context.db, projectId, sessionId, ...(await snapshotOf(files)));

  /** What prepareTurn builds for one turn: a SessionSandbox and the tools over it. */
  const turn = async (session: string) => {
    const sandbox = new SessionSandbox({ db: app.context.db, projectId, sessionId: session, limits });
    const built = await registry.build(toolEntries, {
      projectId,
      sessionId: session,
      sandbox,
      resultMaxBytes: app.context.config.sandbox.toolResultMaxBytes,
      policy: { rules: { allow: [], ask: [], deny: [] }, runnerDefault: "allow" },
    });
    const call = async (name: "bash" | "read", input: Record<string, unknown>) => {
      const output = await built.toolSet[name].execute!(input, {
        toolCallId: randomUUID(),
        messages: [],
      } as ToolExecutionOptions);
      if (typeof output !== "string" || !output) throw new Error(`${name} returned ${String(output)}`);
    };
    return { bash: () => call("bash", { command: COMMAND }), read: () => call("read", { path: READ_PATH }) };
  };

  const oursOneTurn = await turn(sessionId);
  const oursTurnPerCall: Workload = {
    bash: async () => (await turn(sessionId)).bash(),
    read: async () => (await turn(sessionId)).read(),
  };
  const bareShell = new Bash({
    cwd: "/workspace",
    files: Object.fromEntries(Object.entries(files).map(([path, content]) => [`/workspace/${path}`, content])),
  });
  const bare: Workload = {
    bash: async () => {
      const result = await bareShell.exec(COMMAND);
      if (result.exitCode !== 0) throw new Error(result.stderr);
    },
    read: async () => {
      if (!(await bareShell.fs.readFile(`/workspace/${READ_PATH}`))) throw new Error("empty read");
    },
  };

  const perSecond = async (work: () => Promise<void>, count: number) => {
    const started = performance.now();
    for (let i = 0; i < count; i++) await work();
    return count / ((performance.now() - started) / 1000);
  };
  const medianMs = async (work: () => Promise<void>) => {
    const times: number[] = [];
    for (let i = 0; i < starts; i++) {
      const started = performance.now();
      await work();
      times.push(performance.now() - started);
    }
    return median(times);
  };
  const oursColdStart = async () => {
    const session = `cold-${randomUUID()}`;
    const sandbox = new SessionSandbox({ db: app.context.db, projectId, sessionId: session, limits });
    const built = await registry.build([toolEntries[0]], {
      projectId,
      sessionId: session,
      sandbox,
      policy: { rules: { allow: [], ask: [], deny: [] }, runnerDefault: "allow" },
    });
    const output = await built.toolSet.bash.execute!({ command: "echo ok" }, {
      toolCallId: "c",
      messages: [],
    } as ToolExecutionOptions);
    if (output !== "ok\n") throw new Error(`cold start answered ${String(output)}`);
  };
  const bareColdStart = async () => {
    const result = await new Bash().exec("echo ok");
    if (result.stdout !== "ok\n") throw new Error(`bare cold start answered ${result.stdout}`);
  };

  try {
    log("warming up");
    for (let i = 0; i < 10; i++) {
      for (const side of [oursOneTurn, oursTurnPerCall, bare]) {
        await side.bash();
        await side.read();
      }
      await oursColdStart();
      await bareColdStart();
    }
    const perRound: Array<Record<string, number>> = [];
    for (let r = 0; r < rounds; r++) {
      // Alternate which side goes first so the machine's drift cancels.
      const bareFirst = r % 2 === 1;
      const figures: Record<string, number> = {};
      const measureBare = async () => {
        figures.bare_bash = await perSecond(bare.bash, calls);
        figures.bare_read = await perSecond(bare.read, calls);
        figures.bare_cold_ms = await medianMs(bareColdStart);
      };
      if (bareFirst) await measureBare();
      figures.one_turn_bash = await perSecond(oursOneTurn.bash, calls);
      figures.one_turn_read = await perSecond(oursOneTurn.read, calls);
      figures.turn_per_call_bash = await perSecond(oursTurnPerCall.bash, calls);
      figures.turn_per_call_read = await perSecond(oursTurnPerCall.read, calls);
      figures.ours_cold_ms = await medianMs(oursColdStart);
      if (!bareFirst) await measureBare();
      perRound.push(figures);
      log(
        `round ${r + 1}/${rounds}: ${JSON.stringify(Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, round3(v)])))}`,
      );
    }
    const med = (key: string) => round3(median(perRound.map((f) => f[key])));
    const ratio = (ours: string, theirs: string) => significant3(median(perRound.map((f) => f[ours] / f[theirs])));
    return {
      benchmark: "tools",
      calls_per_sec: {
        bash: { one_turn: med("one_turn_bash"), turn_per_call: med("turn_per_call_bash"), bare: med("bare_bash") },
        read: { one_turn: med("one_turn_read"), turn_per_call: med("turn_per_call_read"), bare: med("bare_read") },
      },
      ratio_to_bare: {
        bash_one_turn: ratio("one_turn_bash", "bare_bash"),
        bash_turn_per_call: ratio("turn_per_call_bash", "bare_bash"),
        read_one_turn: ratio("one_turn_read", "bare_read"),
        read_turn_per_call: ratio("turn_per_call_read", "bare_read"),
      },
      cold_start_ms: {
        new_session_workspace: med("ours_cold_ms"),
        bare_new_bash: med("bare_cold_ms"),
        ratio: ratio("ours_cold_ms", "bare_cold_ms"),
      },
      workload: {
        bash_command: COMMAND,
        read_path: READ_PATH,
        workspace_files: fileCount + 1,
        workspace_bytes: Object.values(files).reduce((sum, text) => sum + Buffer.byteLength(text), 0),
      },
      rounds,
      calls_per_round: calls,
      cold_starts_per_round: starts,
      database: app.database.kind,
      ...machine(),
      load_avg_1m_at_start: loadBefore,
    };
  } finally {
    await app.close();
  }
}

/** A small project: `notes.txt` of 200 lines to read, and `count` source files of about 2 KB. */
function seedFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {
    [READ_PATH]:
      Array.from({ length: 200 }, (_, i) => `line ${i + 1}: the quick brown fox jumps over the lazy dog`).join("\n") +
      "\n",
  };
  for (let i = 0; i < count; i++) files[`src/module-${i}.ts`] = `export const value${i} = ${i};\n`.repeat(70);
  return files;
}

async function snapshotOf(
  files: Record<string, string>,
): Promise<[Awaited<ReturnType<typeof snapshotWorkspace>>["entries"], number]> {
  const fs = new InMemoryFs();
  await restoreWorkspace(fs, []);
  for (const [path, content] of Object.entries(files)) {
    const full = `/workspace/${path}`;
    await fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await fs.writeFile(full, content);
  }
  const { entries, sizeBytes } = await snapshotWorkspace(fs);
  return [entries, sizeBytes];
}

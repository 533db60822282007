/**
 * Builds the app into its own dist dir and runs the production server (`npm start`: server.ts in
 * front of Next.js) on a free loopback port against a fresh database, the way an operator would
 * run it, so benchmarks measure the real server.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { log } from "./benchmark";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** Benchmarks build here so they never clobber `.next/` of a dev server or a CI build. */
export const BENCH_DIST_DIR = ".next-bench";
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
const START_SCRIPT = path.join(ROOT, "scripts", "start.mjs");
const API_SERVER = path.join(ROOT, "bench", "api-server", "main.ts");

/**
 * The node options `npm start` gives the server (package.json's `start` script, before
 * scripts/start.mjs), so a benchmark's server, the API door alone included, runs as `npm start`'s.
 */
export function startNodeOptions(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  const script = words.indexOf("scripts/start.mjs");
  if (words[0] !== "node" || script < 0) throw new Error(`Unexpected start script: ${pkg.scripts.start}`);
  return words.slice(1, script);
}

/** What the production build is made from; a change to any of these makes a bench build stale. */
const BUILD_INPUTS = [
  "app",
  "server",
  "server.ts",
  "components",
  "drizzle",
  "instrumentation.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "package-lock.json",
];
/** `next build` rewrites these to point at its dist dir; they are put back afterwards. */
const FILES_NEXT_REWRITES = ["tsconfig.json", "next-env.d.ts"];

function newestMtime(target: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(target) ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) {
    if (entry.startsWith(".") || entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Why the build in `distDir` cannot be used, or null when it is current. */
function staleReason(distDir: string): string | null {
  const buildId = path.join(ROOT, distDir, "BUILD_ID");
  if (!fs.existsSync(buildId) || !fs.existsSync(path.join(ROOT, distDir, "server.mjs")))
    return `no build in ${distDir}/`;
  const builtAt = fs.statSync(buildId).mtimeMs;
  const changed = BUILD_INPUTS.find((input) => newestMtime(path.join(ROOT, input)) > builtAt);
  return changed ? `${changed} changed since the last build in ${distDir}/` : null;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    // The build's own output goes to stderr: stdout is reserved for the benchmark's JSON.
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", process.stderr, process.stderr] });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `${path.basename(args[0] ?? command)} ${args.slice(1).join(" ")} failed (${signal ?? `exit ${code}`})`,
            ),
          ),
    );
  });
}

/**
 * Runs `next build` into `distDir` when there is no build there or the sources changed since it
 * was made. `rebuild: true` always builds; `rebuild: false` uses any existing build, even a stale
 * one. Returns whether it built.
 */
export async function ensureBuild(options: { distDir?: string; rebuild?: boolean } = {}): Promise<boolean> {
  const distDir = options.distDir ?? BENCH_DIST_DIR;
  const exists = fs.existsSync(path.join(ROOT, distDir, "BUILD_ID"));
  const reason =
    options.rebuild === true
      ? "a rebuild was asked for"
      : options.rebuild === false && exists
        ? null
        : staleReason(distDir);
  if (!reason) {
    log(`using the existing build in ${distDir}/${options.rebuild === false ? " (--no-rebuild)" : ""}`);
    return false;
  }
  log(`building the app into ${distDir}/ (${reason}) ...`);
  const saved = new Map(FILES_NEXT_REWRITES.map((f) => [f, readIfExists(path.join(ROOT, f))]));
  const started = performance.now();
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      NEXT_DIST_DIR: distDir,
      NEXT_TELEMETRY_DISABLED: "1",
    };
    await run(process.execPath, [NEXT_BIN, "build"], env);
    // npm's postbuild step: server.ts into <distDir>/server.mjs.
    await run(process.execPath, [path.join(ROOT, "scripts", "build-server.mjs")], env);
  } finally {
    for (const [file, content] of saved) restore(path.join(ROOT, file), content);
  }
  log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function restore(file: string, content: string | null): void {
  const now = readIfExists(file);
  if (now === content) return;
  if (content === null) fs.rmSync(file, { force: true });
  else fs.writeFileSync(file, content);
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface StartOptions {
  distDir?: string;
  /**
   * PostgreSQL server to use; a fresh database is created on it for this run and dropped at
   * stop. Defaults to `DATABASE_URL`; `null` forces embedded PGlite.
   */
  databaseUrl?: string | null;
  /** Extra environment for the server (e.g. LOG_LEVEL). */
  env?: Record<string, string>;
  /** Path polled until it answers 200. */
  readyPath?: string;
  /** Run the API door alone (bench/api-server/), no Next.js build needed. */
  apiOnly?: boolean;
  /** Options for the server's node (e.g. `--cpu-prof`, which NODE_OPTIONS does not take). */
  nodeArgs?: string[];
  timeoutMs?: number;
}

export interface NextServer {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  port: number;
  /** The server's process (`npm start` runs server.mjs in the process it starts). */
  pid: number;
  database: "pglite" | "postgres";
  /** The run's fresh PostgreSQL database (for tools that connect beside the server); unset on PGlite. */
  databaseUrl?: string;
  /**
   * The default project's API key, printed by the server on the first start of an empty
   * database (always the case here, since every run gets a fresh one).
   */
  apiKey: string | null;
  /** The server's ADMIN_TOKEN, for `POST /api/admin/accounts` (`Authorization: Access <token>`). */
  adminToken: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

const KEY_PATTERN = /API key \(shown only now\):\s+(sk_[A-Za-z0-9_-]+)/;
const MAX_OUTPUT = 1 << 20;

/** Starts the production server on 127.0.0.1 and resolves once `readyPath` answers 200. */
export async function startNextServer(options: StartOptions = {}): Promise<NextServer> {
  const distDir = options.distDir ?? BENCH_DIST_DIR;
  if (!options.apiOnly && !fs.existsSync(path.join(ROOT, distDir, "BUILD_ID")))
    throw new Error(`No build in ${distDir}/; call ensureBuild() first`);
  const baseDatabaseUrl = options.databaseUrl === undefined ? process.env.DATABASE_URL || null : options.databaseUrl;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const adminToken = `bench-admin-${randomBytes(16).toString("hex")}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-data-"));

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_DIST_DIR: distDir,
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    ...options.env,
  };
  delete env.DATABASE_URL;
  delete env.PGLITE_DIR;
  delete env.PORT;

  let dropDatabase: (() => Promise<void>) | null = null;
  if (baseDatabaseUrl) {
    const fresh = await createScratchDatabase(baseDatabaseUrl);
    env.DATABASE_URL = fresh.url;
    dropDatabase = fresh.drop;
  } else {
    env.PGLITE_DIR = path.join(dataDir, "pglite");
  }
  const database = baseDatabaseUrl ? "postgres" : "pglite";

  const chunks: string[] = [];
  let outputLength = 0;
  const output = () => chunks.join("");
  const collect = (chunk: Buffer) => {
    chunks.push(chunk.toString("utf8"));
    outputLength += chunk.length;
    while (outputLength > MAX_OUTPUT && chunks.length > 1) outputLength -= chunks.shift()!.length;
  };

  log(`starting the production server on ${baseUrl} (${database}) ...`);
  // Own process group, so stop() also ends anything the server spawned.
  const args = [
    ...startNodeOptions(),
    ...(options.nodeArgs ?? []),
    ...(options.apiOnly ? ["--import", "tsx", API_SERVER] : [START_SCRIPT, "-H", "127.0.0.1", "-p", String(port)]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: options.apiOnly ? { ...env, HOST: "127.0.0.1", PORT: String(port) } : env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // The server is in its own process group, so Ctrl-C does not reach it: end it ourselves.
  const killOnExit = () => killGroup(child, "SIGKILL");
  const onSignal = (signal: NodeJS.Signals) => {
    killOnExit();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("exit", killOnExit);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener("exit", killOnExit);
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(child, "SIGTERM");
      const timedOut = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
      if (timedOut) {
        killGroup(child, "SIGKILL");
        await exited;
      }
    }
    try {
      if (dropDatabase) await dropDatabase();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };

  try {
    await waitUntilReady(`${baseUrl}${options.readyPath ?? "/api/health"}`, child, options.timeoutMs ?? 60_000, output);
    // The key is written before the app reports ready; give the pipe a moment to deliver it.
    const apiKey = await waitFor(() => KEY_PATTERN.exec(output())?.[1] ?? null, 2_000);
    if (!apiKey) log("the server printed no default API key (the database was not empty?)");
    log(`server ready on ${baseUrl}`);
    return {
      baseUrl,
      port,
      pid: child.pid!,
      database,
      databaseUrl: env.DATABASE_URL,
      apiKey,
      adminToken,
      output,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(probe: () => T | null, timeoutMs: number): Promise<T | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== null || Date.now() >= deadline) return value;
    await sleep(25);
  }
}

async function waitUntilReady(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the server exited (${child.signalCode ?? `code ${child.exitCode}`}) before it was ready:\n${output()}`,
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${last}):\n${output()}`);
}

/** A new, empty database on the server `baseUrl` points at, and a function that drops it. */
async function createScratchDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_${randomBytes(6).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = postgres(baseUrl, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end({ timeout: 5 });
      }
    },
  };
}

import os from "node:os";

/** What `bench/<name>/index.ts` (or `bench/<name>.ts`) exports; `bench/run.ts` prints the result as JSON. */
export interface Benchmark {
  run(argv: string[]): Promise<Record<string, unknown>>;
}

/** Progress and diagnostics: stderr, so stdout stays a single JSON document. */
export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** The machine a figure was measured on. */
export function machine(): { node: string; cpus: number } {
  return { node: process.version, cpus: os.availableParallelism() };
}

/**
 * 1-minute load average: other work on the machine (a build, a test run) lowers every figure,
 * so benchmarks report it beside their results.
 */
export function loadAverage(): number {
  return Number(os.loadavg()[0].toFixed(2));
}

export interface LoadOptions {
  /** Measured seconds. */
  durationS: number;
  /** Warm-up seconds, run and discarded before the measurement. */
  warmupS: number;
  connections: number;
  /**
   * Benchmarks that compare a figure with the floor alternate the two this many times and report
   * the median ratio: the machine's speed drifts (other tenants, CPU frequency) by more than the
   * effect being measured, and alternating short runs cancels most of that drift.
   */
  rounds: number;
  /**
   * true: build the app even if a current build exists; false: use any existing build even if
   * the sources changed since; undefined: build when there is none or it is stale.
   */
  rebuild?: boolean;
}

/**
 * Load settings from flags (`--duration 10`, `--duration=10`, `--warmup`, `--connections`,
 * `--rounds`, `--rebuild`, `--no-rebuild`), falling back to env (`BENCH_DURATION`, `BENCH_WARMUP`,
 * `BENCH_CONNECTIONS`, `BENCH_ROUNDS`, `BENCH_REBUILD=1|0`), then to the defaults given.
 */
export function parseLoadOptions(
  argv: string[],
  defaults: Omit<LoadOptions, "rebuild"> = { durationS: 10, warmupS: 3, connections: 10, rounds: 1 },
): LoadOptions {
  const flags = parseFlags(argv);
  const known = new Set(["duration", "warmup", "connections", "rounds", "rebuild", "no-rebuild"]);
  for (const key of Object.keys(flags)) {
    if (!known.has(key))
      throw new Error(`Unknown option --${key}; known: ${[...known].map((k) => `--${k}`).join(", ")}`);
  }
  const number = (flag: string, env: string, fallback: number, min: number) => {
    const raw = flags[flag] ?? process.env[env];
    if (raw === undefined || raw === "" || raw === true) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min)
      throw new Error(`--${flag} / ${env} must be a number >= ${min}, got ${String(raw)}`);
    return value;
  };
  const rebuildEnv = process.env.BENCH_REBUILD;
  const rebuild =
    flags.rebuild !== undefined
      ? flags.rebuild !== "false"
      : flags["no-rebuild"] !== undefined
        ? false
        : rebuildEnv === undefined || rebuildEnv === ""
          ? undefined
          : !["0", "false", "no"].includes(rebuildEnv.toLowerCase());
  return {
    durationS: number("duration", "BENCH_DURATION", defaults.durationS, 1),
    warmupS: number("warmup", "BENCH_WARMUP", defaults.warmupS, 0),
    connections: Math.round(number("connections", "BENCH_CONNECTIONS", defaults.connections, 1)),
    rounds: Math.round(number("rounds", "BENCH_ROUNDS", defaults.rounds, 1)),
    rebuild,
  };
}

/** `--a 1 --b=2 --flag` -> `{ a: "1", b: "2", flag: true }`. */
export function parseFlags(argv: string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) throw new Error(`Unexpected argument "${arg}"; options look like --name value`);
    const eq = arg.indexOf("=");
    if (eq > 0) {
      out[arg.slice(2, eq)] = arg.slice(eq + 1);
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) {
      out[arg.slice(2)] = argv[++i];
    } else {
      out[arg.slice(2)] = true;
    }
  }
  return out;
}

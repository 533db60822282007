/**
 * Benchmark dispatcher: `npm run bench -- <name> [--flag value ...]`.
 *
 * Runs `bench/<name>/index.ts` or `bench/<name>.ts`, whose `run(argv)` returns the result; the
 * result is printed to stdout as JSON (progress goes to stderr) and saved under `bench/results/`.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Benchmark } from "./lib/benchmark";

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const NOT_BENCHMARKS = new Set(["run", "lib", "results"]);

function available(): string[] {
  const names: string[] = [];
  for (const entry of fs.readdirSync(BENCH_DIR, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    if (entry.isDirectory()) {
      if (!NOT_BENCHMARKS.has(entry.name) && fs.existsSync(path.join(BENCH_DIR, entry.name, "index.ts")))
        names.push(entry.name);
    } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
      const name = entry.name.slice(0, -3);
      if (!NOT_BENCHMARKS.has(name)) names.push(name);
    }
  }
  return names.sort();
}

function resolve(name: string): string | null {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name) || NOT_BENCHMARKS.has(name)) return null;
  for (const candidate of [path.join(BENCH_DIR, name, "index.ts"), path.join(BENCH_DIR, `${name}.ts`)]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

function usage(message: string): never {
  const names = available();
  process.stderr.write(
    `${message}\n\nUsage: npm run bench -- <name> [options]\n\nAvailable benchmarks:\n` +
      (names.length ? names.map((n) => `  ${n}`).join("\n") : "  (none)") +
      "\n",
  );
  process.exit(1);
}

async function main(): Promise<void> {
  const [name, ...rest] = process.argv.slice(2);
  if (!name || name === "--help" || name === "-h") usage("No benchmark named.");
  const file = resolve(name);
  if (!file) usage(`Unknown benchmark "${name}".`);

  const mod = (await import(pathToFileURL(file).href)) as Partial<Benchmark> & { default?: Partial<Benchmark> };
  const run = mod.run ?? mod.default?.run;
  if (typeof run !== "function") throw new Error(`${path.relative(process.cwd(), file)} does not export run(argv)`);

  const result = await run(rest);
  const json = JSON.stringify(result, null, 2);
  process.stdout.write(json + "\n");

  const resultsDir = path.join(BENCH_DIR, "results");
  fs.mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  fs.writeFileSync(path.join(resultsDir, `${name}-${stamp}.json`), json + "\n");
}

main().then(
  // Sockets or timers a benchmark left behind must not keep the process alive.
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

import { Bash, InMemoryFs } from "just-bash";
import {
  nodeRuntime,
  pythonProgram,
  pythonRuntime,
  PYTHON_HEAP_MB,
  RESULT_MARKER,
  type CodeLimits,
} from "@/server/agent-runs";
import { EvaluatorFailure } from "./evaluator-failure";

export const CODE_RUNTIMES = ["python", "javascript"] as const;
export type CodeRuntimeName = (typeof CODE_RUNTIMES)[number];

const SCRIPT = "/tmp/evaluator.py";

/**
 * CPython (WebAssembly, just-bash's `python3`) in a shell of its own over an empty in-memory file
 * system with no network: an evaluator has no workspace to keep, so nothing is saved. The
 * program is the code tools' (`main(**inputs)`, its value read back after a marker).
 */
async function runPython(script: string, input: unknown, limits: CodeLimits, signal: AbortSignal): Promise<unknown> {
  const fs = new InMemoryFs();
  await fs.mkdir("/tmp", { recursive: true });
  await fs.writeFile(SCRIPT, pythonProgram(script));
  const bash = new Bash({
    fs,
    cwd: "/tmp",
    env: { HOME: "/tmp" },
    python: true,
    executionLimits: { maxPythonTimeoutMs: limits.timeoutMs },
  });
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const result = await bash.exec(`python3 ${SCRIPT}`, {
    stdin: JSON.stringify(input),
    signal: AbortSignal.any([signal, timeout]),
  });
  if (timeout.aborted) throw new Error(`stopped after ${limits.timeoutMs} ms (SANDBOX_COMMAND_TIMEOUT_MS)`);
  const marker = result.stdout.lastIndexOf(RESULT_MARKER);
  if (result.exitCode !== 0 || marker < 0) {
    const cause = /\bMemoryError\b/.test(result.stderr)
      ? `stopped: the code went over the python interpreter's ${PYTHON_HEAP_MB} MB heap\n`
      : "";
    throw new Error(`${cause}exit code ${result.exitCode}\n${result.stderr}${result.stdout}`.trimEnd());
  }
  return JSON.parse(result.stdout.slice(marker + RESULT_MARKER.length)) as unknown;
}

/**
 * Runs `main(input)` of a script in the project's code-tool runtimes, never on the host: python
 * in just-bash's CPython, javascript in QuickJS on a worker thread. A failure of the code is an
 * `EvaluatorFailure` carrying the interpreter's message.
 */
export async function runInSandbox(
  runtime: CodeRuntimeName,
  script: string,
  input: unknown,
  limits: CodeLimits,
  signal: AbortSignal,
): Promise<unknown> {
  const refusal = runtime === "python" ? pythonRuntime.refusal?.(limits) : undefined;
  if (refusal) throw new EvaluatorFailure("runtime_unavailable", `python evaluators cannot run here: ${refusal}`);
  try {
    return runtime === "python"
      ? await runPython(script, input, limits, signal)
      : await nodeRuntime.run({ script, input, env: {}, limits, signal });
  } catch (error) {
    if (error instanceof EvaluatorFailure) throw error;
    throw new EvaluatorFailure("code_error", `the evaluator code failed: ${(error as Error).message}`);
  }
}

import { randomUUID } from "node:crypto";
import { posix } from "node:path";
import type { Sandbox } from "@/server/sandbox";
import type { CodeLimits, CodeRuntime } from "./code-runner";

/** Marks where the script's own output ends and the JSON of main's return value begins. */
export const RESULT_MARKER = "\n@@svc-code-tool-result-7f3a9c@@";

/** Outside /workspace, so scripts are never saved with the session's files. */
const SCRIPT_DIR = "/tmp/code-tools";

export interface ProgramSpec {
  /** File name ending of the program. */
  extension: string;
  /**
   * The file the interpreter runs: the tool's script, then a call of main with stdin's JSON.
   * `given` names the environment variables the tool was given (everything else may be removed).
   */
  program(script: string, given: string[]): string;
  /** The command line running `path`; may carry the interpreter's own memory flag. */
  command(path: string, limits: CodeLimits): string;
  /** Whether the sandbox caps the command's memory (`ulimit`); false when the command line does. */
  memoryByExec: boolean;
  /** Explains a failure by its output (the interpreter's out-of-memory message). */
  cause?(output: string, sandbox: Sandbox): string | undefined;
  refusal?: CodeRuntime["refusal"];
}

/**
 * A code tool run as a program in the session's sandbox: the program is written outside the
 * workspace, run with the arguments on stdin and the secrets as environment variables of that one
 * command, and main's return value read back as JSON after a marker. The file is removed after
 * the call; the workspace is saved, as the script may have written to it.
 */
export function sandboxProgram(spec: ProgramSpec): CodeRuntime {
  return {
    needsSandbox: true,
    refusal: spec.refusal,
    run: ({ script, input, env, limits, signal, sandbox }) => {
      if (!sandbox) throw new Error("this code tool runs in the session's sandbox");
      return sandbox.serial(async () => {
        const files = await sandbox.files();
        const path = posix.join(SCRIPT_DIR, `${randomUUID()}${spec.extension}`);
        await files.mkdir(SCRIPT_DIR);
        await files.writeFile(path, spec.program(script, Object.keys(env)));
        try {
          const memoryMb = spec.memoryByExec ? limits.memoryMb : undefined;
          const result = await sandbox.exec(spec.command(path, limits), signal, {
            env,
            stdin: JSON.stringify(input ?? {}),
            memoryMb,
          });
          const marker = result.stdout.lastIndexOf(RESULT_MARKER);
          if (result.exitCode !== 0 || marker < 0) {
            throw new Error(
              `${spec.cause?.(`${result.stderr}${result.stdout}`, sandbox) ?? ""}exit code ${result.exitCode}\n${result.stderr}${result.stdout}`.trimEnd(),
            );
          }
          return JSON.parse(result.stdout.slice(marker + RESULT_MARKER.length)) as unknown;
        } finally {
          await files.remove(path);
          await sandbox.persist();
        }
      });
    },
  };
}

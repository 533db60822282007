import { randomUUID } from "node:crypto";
import { posix } from "node:path";
import type { CodeRuntime } from "./code-runner";

/** Marks where the script's own output ends and the JSON of main's return value begins. */
export const RESULT_MARKER = "\n@@svc-code-tool-result-7f3a9c@@";

/** Outside /workspace, so scripts are never saved with the session's files. */
const SCRIPT_DIR = "/tmp/code-tools";

/**
 * The heap ceiling of just-bash's CPython build (its Emscripten `getHeapMax`, 512 MiB): an
 * allocation past it raises MemoryError. just-bash gives no way to lower it, so a smaller
 * CODE_TOOL_MEMORY_MB cannot be honoured for python and such a tool is refused.
 */
export const PYTHON_HEAP_MB = 512;

/**
 * The file python3 runs inside the sandbox: first the environment is emptied of everything the
 * tool was not given (the virtual shell's variables, the interpreter's `_` naming the host's
 * install path), then the tool's script, then a call of `main(**inputs)` with the arguments read
 * from stdin, its return value printed as JSON after the marker.
 */
export function pythonProgram(script: string, given: string[] = []): string {
  return `import os as _svc_os
for _svc_name in [n for n in _svc_os.environ if n not in ${JSON.stringify(given)}]:
    del _svc_os.environ[_svc_name]

${script}

import json as _svc_json, sys as _svc_sys
_svc_inputs = _svc_json.loads(_svc_sys.stdin.read() or "{}")
_svc_result = main(**_svc_inputs)
_svc_sys.stdout.write(${JSON.stringify(RESULT_MARKER)} + _svc_json.dumps(_svc_result, default=str))
`;
}

/**
 * `python` code tools: the sandbox's CPython (WebAssembly, in a worker thread of just-bash; no
 * host process), the arguments on stdin, the secrets as environment variables of that one
 * command. The script file lives outside the workspace and is removed after the call.
 */
export const pythonRuntime: CodeRuntime = {
  needsSandbox: true,
  refusal: (limits) =>
    limits.memoryMb < PYTHON_HEAP_MB
      ? `the python interpreter's heap is fixed at ${PYTHON_HEAP_MB} MB, above CODE_TOOL_MEMORY_MB (${limits.memoryMb}); set CODE_TOOL_MEMORY_MB to ${PYTHON_HEAP_MB} or more to run python code tools`
      : undefined,
  run: ({ script, input, env, signal, sandbox }) => {
    if (!sandbox) throw new Error("python code tools run in the session's sandbox");
    return sandbox.serial(async () => {
      const fs = await sandbox.files();
      const path = posix.join(SCRIPT_DIR, `${randomUUID()}.py`);
      await fs.mkdir(SCRIPT_DIR, { recursive: true });
      await fs.writeFile(path, pythonProgram(script, Object.keys(env)));
      try {
        const result = await sandbox.exec(`python3 ${path}`, signal, { env, stdin: JSON.stringify(input ?? {}) });
        const marker = result.stdout.lastIndexOf(RESULT_MARKER);
        if (result.exitCode !== 0 || marker < 0) {
          const cause = /\bMemoryError\b/.test(result.stderr) ? `stopped: the script went over the python interpreter's ${PYTHON_HEAP_MB} MB heap\n` : "";
          throw new Error(`${cause}exit code ${result.exitCode}\n${result.stderr}${result.stdout}`.trimEnd());
        }
        return JSON.parse(result.stdout.slice(marker + RESULT_MARKER.length)) as unknown;
      } finally {
        await fs.rm(path, { force: true });
        await sandbox.persist();
      }
    });
  },
};

import { RESULT_MARKER, sandboxProgram } from "./sandbox-program";

/**
 * The heap ceiling of just-bash's CPython build (its Emscripten `getHeapMax`, 512 MiB): an
 * allocation past it raises MemoryError. just-bash gives no way to lower it, so in the local
 * sandbox a smaller CODE_TOOL_MEMORY_MB cannot be honoured and such a tool is refused. A hosted
 * sandbox caps the command itself (`ulimit -v`).
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

/** `python` code tools: the sandbox's python3 (local: CPython in WebAssembly, never a host process). */
export const pythonRuntime = sandboxProgram({
  extension: ".py",
  program: pythonProgram,
  command: (path) => `python3 ${path}`,
  memoryByExec: true,
  cause: (output, sandbox) => {
    if (!/\bMemoryError\b/.test(output)) return undefined;
    return sandbox.capsCommandMemory
      ? "stopped: the script went over its memory cap (CODE_TOOL_MEMORY_MB)\n"
      : `stopped: the script went over the python interpreter's ${PYTHON_HEAP_MB} MB heap\n`;
  },
  refusal: (limits, sandbox) =>
    !sandbox?.capsCommandMemory && limits.memoryMb < PYTHON_HEAP_MB
      ? `the python interpreter's heap is fixed at ${PYTHON_HEAP_MB} MB, above CODE_TOOL_MEMORY_MB (${limits.memoryMb}); set CODE_TOOL_MEMORY_MB to ${PYTHON_HEAP_MB} or more to run python code tools`
      : undefined,
});

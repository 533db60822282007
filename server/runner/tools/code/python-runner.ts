/** Marks where the script's own output ends and the JSON of main's return value begins. */
export const RESULT_MARKER = "\n@@svc-code-tool-result-7f3a9c@@";

/**
 * The file python3 runs inside the sandbox: the tool's script, then a call of `main(**inputs)`
 * with the arguments read from stdin, its return value printed as JSON after the marker.
 */
export function pythonProgram(script: string): string {
  return `${script}

import json as _svc_json, sys as _svc_sys
_svc_inputs = _svc_json.loads(_svc_sys.stdin.read() or "{}")
_svc_result = main(**_svc_inputs)
_svc_sys.stdout.write(${JSON.stringify(RESULT_MARKER)} + _svc_json.dumps(_svc_result, default=str))
`;
}

/** `<svc|agenta>:<builtin|custom>:<key>:v0`, parsed; undefined for anything else. */
export interface EvaluatorUri {
  family: "builtin" | "custom";
  key: string;
}

// `agenta:` is the reference implementation's own prefix, which its clients store; `svc:` is ours.
// Same evaluators.
const URI = /^(?:svc|agenta):(builtin|custom):([a-z0-9_]+):v0$/;

export function parseEvaluatorUri(uri: string): EvaluatorUri | undefined {
  const match = URI.exec(uri);
  return match ? { family: match[1] as EvaluatorUri["family"], key: match[2] } : undefined;
}

import type { TemplateIssue } from "./template-issue";

/** Where the template sits in a workflow revision; commit errors carry paths from there. */
export const AGENT_PATH_PREFIX = "data.parameters.agent";

/** `data.parameters.agent.llm.model` -> `llm.model`; the bare prefix is the template itself (""). */
export function stripAgentPrefix(path: string): string {
  if (path === AGENT_PATH_PREFIX) return "";
  if (path.startsWith(`${AGENT_PATH_PREFIX}.`)) return path.slice(AGENT_PATH_PREFIX.length + 1);
  if (path.startsWith(`${AGENT_PATH_PREFIX}[`)) return path.slice(AGENT_PATH_PREFIX.length);
  return path;
}

export function serverErrorsToIssues(errors: ReadonlyArray<{ path: string; message: string }>): TemplateIssue[] {
  return errors.map((e) => ({
    path: stripAgentPrefix(e.path),
    message: e.message,
    severity: "error",
    source: "server",
  }));
}

const ROOT_KEYS = "instructions|llm|tools|mcps|skills|harness|runner|sandbox";
const LEADING_PATH = new RegExp(
  `^((?:${AGENT_PATH_PREFIX.replace(/\./g, "\\.")}\\.)?(?:${ROOT_KEYS})(?:\\.[A-Za-z_][\\w-]*|\\[\\d+\\])*)\\s+(.*)$`,
  "s",
);

/** Server warnings are sentences that start with the path they are about. */
export function serverWarningToIssue(text: string): TemplateIssue {
  const match = LEADING_PATH.exec(text);
  if (!match) return { path: "", message: text, severity: "warning", source: "server" };
  return { path: stripAgentPrefix(match[1]), message: match[2], severity: "warning", source: "server" };
}

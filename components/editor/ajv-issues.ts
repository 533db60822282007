import type { ErrorObject } from "ajv";
import { formatPath, type PathSegment } from "./json-path";
import type { TemplateIssue } from "./template-issue";

/**
 * ajv's errors, made readable: the union branches a value was never meant to match are pruned
 * (a `client` tool is not reported for missing `script`), `if` bookkeeping is dropped, paths use
 * the server's format and messages read like the server's.
 */
export function ajvErrorsToIssues(errors: readonly ErrorObject[] | null | undefined): TemplateIssue[] {
  const kept = pruneUnionBranches([...(errors ?? [])]);
  const seen = new Set<string>();
  const issues: TemplateIssue[] = [];
  for (const entry of kept) {
    const issue = "synthetic" in entry ? entry.synthetic : toIssue(entry);
    if (!issue) continue;
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

type Entry = ErrorObject | { synthetic: TemplateIssue };

const COMBINATORS = new Set(["oneOf", "anyOf"]);

function pruneUnionBranches(errors: ErrorObject[]): Entry[] {
  const removed = new Set<ErrorObject>();
  const replacements = new Map<ErrorObject, TemplateIssue>();
  const unions = errors
    .filter((e) => COMBINATORS.has(e.keyword))
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const union of unions) {
    if (removed.has(union)) continue;
    const prefix = `${union.schemaPath}/`;
    const inside = (e: ErrorObject) =>
      e.instancePath === union.instancePath || e.instancePath.startsWith(`${union.instancePath}/`);
    const children = errors.filter((e) => !removed.has(e) && e.schemaPath.startsWith(prefix) && inside(e));
    const branches = new Map<string, ErrorObject[]>();
    for (const child of children) {
      const branch = child.schemaPath.slice(prefix.length).split("/")[0];
      branches.set(branch, [...(branches.get(branch) ?? []), child]);
    }
    const plausible = [...branches.values()].filter(
      (branch) => !branch.some((e) => disqualifies(e, union.instancePath)),
    );
    for (const child of children) removed.add(child);
    removed.add(union);
    if (plausible.length > 0) {
      // The value is of the kind these branches describe: report what is wrong inside the first.
      for (const e of plausible[0]) removed.delete(e);
    } else {
      replacements.set(union, noBranchMatches(union, children));
      removed.delete(union);
    }
  }
  return errors
    .filter((e) => !removed.has(e))
    .map((e) => (replacements.has(e) ? { synthetic: replacements.get(e)! } : e));
}

/** A branch is not the one meant when the value's type or its `type` discriminator is not its own. */
function disqualifies(error: ErrorObject, unionPath: string): boolean {
  if (error.instancePath === unionPath && error.keyword === "type") return true;
  if (error.instancePath === `${unionPath}/type` && (error.keyword === "const" || error.keyword === "enum"))
    return true;
  return error.instancePath === unionPath && error.keyword === "required" && error.params.missingProperty === "type";
}

function noBranchMatches(union: ErrorObject, children: ErrorObject[]): TemplateIssue {
  const base = pointerToSegments(union.instancePath);
  const consts = children.filter((e) => e.keyword === "const" && e.instancePath === `${union.instancePath}/type`);
  if (consts.length > 0) {
    const allowed = consts.map((e) => String(e.params.allowedValue)).join(", ");
    const got = consts[0].data;
    return issue([...base, "type"], `must be one of ${allowed}; got ${describe(got)}`);
  }
  if (children.some((e) => e.keyword === "required" && e.params.missingProperty === "type")) {
    return issue([...base, "type"], "is required");
  }
  const types = children
    .filter((e) => e.keyword === "type" && e.instancePath === union.instancePath)
    .flatMap((e) => [e.params.type].flat());
  if (types.length > 0)
    return issue(base, `must be ${[...new Set(types)].map(article).join(" or ")}; got ${describe(union.data)}`);
  return issue(base, "does not match any allowed shape");
}

const MOVED_ROOT_KEYS: Record<string, string> = {
  model: "use llm.model",
  provider: "use llm.provider",
  agents_md: "use instructions.agents_md",
};
const SELECTORS = new Set(["/harness", "/runner", "/sandbox"]);

function toIssue(error: ErrorObject): TemplateIssue | null {
  const base = pointerToSegments(error.instancePath);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "if":
      return null; // the failing then/else branch reports the actual problem
    case "additionalProperties": {
      const key = String(p.additionalProperty);
      if (error.instancePath === "" && MOVED_ROOT_KEYS[key])
        return issue([key], `unknown key "${key}": ${MOVED_ROOT_KEYS[key]}`);
      const noun = SELECTORS.has(error.instancePath) ? "unknown selector key" : "unknown key";
      return issue([...base, key], `${noun} "${key}"`);
    }
    case "required":
      return issue([...base, String(p.missingProperty)], "is required");
    case "enum":
      return issue(
        base,
        `must be one of ${(p.allowedValues as unknown[]).map(String).join(", ")}; got ${describe(error.data)}`,
      );
    case "const":
      return issue(base, `must be ${JSON.stringify(p.allowedValue)}; got ${describe(error.data)}`);
    case "type":
      return issue(
        base,
        `must be ${[p.type]
          .flat()
          .map((t) => article(String(t)))
          .join(" or ")}; got ${describe(error.data)}`,
      );
    case "minLength":
      return issue(base, p.limit === 1 ? "must not be empty" : `must have at least ${p.limit} characters`);
    case "maxLength":
      return issue(base, `must have at most ${p.limit} characters`);
    case "pattern":
      return issue(base, `has an invalid format (expected to match ${p.pattern})`);
    case "not":
      return issue(base, "is not allowed here");
    default:
      return issue(base, error.message ?? "is invalid");
  }
}

function issue(segments: PathSegment[], message: string): TemplateIssue {
  return { path: formatPath(segments), message, severity: "error", source: "schema" };
}

/** `/tools/0/name` -> `["tools", 0, "name"]` (RFC 6901 escapes undone). */
export function pointerToSegments(pointer: string): PathSegment[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

function article(type: string): string {
  if (type === "null") return "null";
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

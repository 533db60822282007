import { parsePath } from "./json-path";
import type { TemplateIssue } from "./template-issue";

/** The parts of the form an issue can be shown beside. */
export type FormField = "instructions" | "model" | "tools" | `tool:${number}` | "runner" | "harness" | "sandbox";

/** Which form field shows an issue at `path`; null when the form has no place for it (the JSON view does). */
export function fieldOfPath(path: string): FormField | null {
  const [head, second] = parsePath(path);
  switch (head) {
    case "instructions":
      return "instructions";
    case "llm":
      return "model";
    case "tools":
      return typeof second === "number" ? `tool:${second}` : "tools";
    case "runner":
    case "harness":
    case "sandbox":
      return head;
    default:
      return null;
  }
}

export function issuesForField(issues: readonly TemplateIssue[], field: FormField): TemplateIssue[] {
  return issues.filter((issue) => fieldOfPath(issue.path) === field);
}

export function issuesWithoutField(issues: readonly TemplateIssue[]): TemplateIssue[] {
  return issues.filter((issue) => fieldOfPath(issue.path) === null);
}

export function countBySeverity(issues: readonly TemplateIssue[]): { errors: number; warnings: number } {
  const errors = issues.filter((i) => i.severity === "error").length;
  return { errors, warnings: issues.length - errors };
}

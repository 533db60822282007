import type { TemplateIssue } from "./template-issue";
import type { JsonSyntaxError } from "./template-text";

/** The one judgement of the draft that the toolbar's badge, the problems panel and Commit all show. */
export interface TemplateVerdict {
  /** Everything to fix or know, a syntax error first: what the problems panel lists. */
  problems: TemplateIssue[];
  errors: number;
  warnings: number;
  state: "problems" | "checking" | "warnings" | "valid";
  /** Why Commit is disabled by the template itself, or null when the template may be committed. */
  commitBlocked: string | null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * `issues` are the schema's or the server's findings on the last template that parsed; a syntax
 * error in the text counts as one more problem. Errors block the commit (the server would refuse
 * it anyway); warnings do not.
 */
export function templateVerdict({
  issues,
  syntaxError,
  checking,
}: {
  issues: TemplateIssue[];
  syntaxError: JsonSyntaxError | null;
  checking: boolean;
}): TemplateVerdict {
  const syntax: TemplateIssue[] = syntaxError
    ? [
        {
          path: "",
          message: `Syntax error: ${syntaxError.message}`,
          severity: "error",
          source: "syntax",
          line: syntaxError.line,
        },
      ]
    : [];
  const problems = [...syntax, ...issues];
  const errors = problems.filter((p) => p.severity === "error").length;
  const warnings = problems.length - errors;
  const state = errors > 0 ? "problems" : checking ? "checking" : warnings > 0 ? "warnings" : "valid";
  const commitBlocked = errors === 0 ? null : `Fix ${plural(errors, "problem", "problems")} to commit`;
  return { problems, errors, warnings, state, commitBlocked };
}

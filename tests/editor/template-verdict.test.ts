import { describe, expect, it } from "vitest";
import type { TemplateIssue } from "@/components/editor/template-issue";
import { templateVerdict } from "@/components/editor/template-verdict";

const error: TemplateIssue = {
  path: "runner.permissions.default",
  message: "must be one of allow, ask",
  severity: "error",
  source: "schema",
};
const warning: TemplateIssue = {
  path: "tools[0].name",
  message: "is not a known tool",
  severity: "warning",
  source: "server",
};

describe("templateVerdict: one judgement for the badge, the problems panel and Commit", () => {
  it("counts exactly what the panel lists, the syntax error included and first", () => {
    const verdict = templateVerdict({
      issues: [error, warning],
      syntaxError: { message: "Unexpected end of JSON input", line: 12 },
      checking: false,
    });
    expect(verdict.problems.map((p) => p.source)).toEqual(["syntax", "schema", "server"]);
    expect(verdict.problems[0]).toMatchObject({
      severity: "error",
      line: 12,
      message: "Syntax error: Unexpected end of JSON input",
    });
    expect(verdict.errors).toBe(verdict.problems.filter((p) => p.severity === "error").length);
    expect(verdict).toMatchObject({
      errors: 2,
      warnings: 1,
      state: "problems",
      commitBlocked: "Fix 2 problems to commit",
    });
  });

  it("a syntax error alone is one problem and blocks the commit (the panel is never 'matches' while the badge says 1 problem)", () => {
    const verdict = templateVerdict({ issues: [], syntaxError: { message: "Bad" }, checking: false });
    expect(verdict.problems).toHaveLength(1);
    expect(verdict).toMatchObject({ errors: 1, state: "problems", commitBlocked: "Fix 1 problem to commit" });
  });

  it("warnings and checking do not block", () => {
    expect(templateVerdict({ issues: [warning], syntaxError: null, checking: false })).toMatchObject({
      state: "warnings",
      commitBlocked: null,
    });
    expect(templateVerdict({ issues: [], syntaxError: null, checking: true })).toMatchObject({
      state: "checking",
      commitBlocked: null,
    });
    expect(templateVerdict({ issues: [], syntaxError: null, checking: false })).toMatchObject({
      state: "valid",
      errors: 0,
      warnings: 0,
      commitBlocked: null,
    });
  });

  it("problems outrank checking: a known error stays visible while the server re-checks", () => {
    expect(templateVerdict({ issues: [error], syntaxError: null, checking: true }).state).toBe("problems");
  });
});

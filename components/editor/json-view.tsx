"use client";

import { useMemo, useRef } from "react";
import { Button, CopyButton, Notice } from "@/components/ui";
import { JsonEditor, revealLine, type LineMarks } from "./json-editor";
import { lineOfPath, locateJsonPaths } from "./json-locate";
import { ProblemsList } from "./problems-list";
import type { TemplateIssue } from "./template-issue";
import { formatTemplate, type ParsedText } from "./template-text";
import type { TemplateVerdict } from "./template-verdict";

/** The whole template as JSON text, with its problems listed and marked in the gutter. */
export function JsonView({
  text,
  parsed,
  onChange,
  issues,
  verdict,
}: {
  text: string;
  parsed: ParsedText;
  onChange: (next: string) => void;
  /** Findings on the last template that parsed (gutter marks). */
  issues: TemplateIssue[];
  /** Those findings and any syntax error: the problems panel. */
  verdict: TemplateVerdict;
}) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const positions = useMemo(() => (parsed.ok ? locateJsonPaths(text) : new Map<string, number>()), [parsed.ok, text]);
  const lineOf = (issue: TemplateIssue) =>
    issue.source === "syntax" ? issue.line : parsed.ok ? lineOfPath(text, issue.path, positions) : undefined;
  const syntax = parsed.ok ? null : parsed.error;

  const marks = useMemo<LineMarks>(() => {
    const map = new Map<number, "error" | "warning">();
    if (syntax?.line) map.set(syntax.line, "error");
    if (!parsed.ok) return map;
    for (const issue of issues) {
      const line = lineOfPath(text, issue.path, positions);
      if (line !== undefined && map.get(line) !== "error") map.set(line, issue.severity);
    }
    return map;
  }, [issues, parsed.ok, positions, syntax, text]);

  const formatted = parsed.ok ? formatTemplate(parsed.value) : null;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-3">
        <label htmlFor="template-json" className="text-sm font-medium">
          Agent template <span className="font-normal text-muted">(JSON)</span>
        </label>
        <div className="flex items-center gap-2">
          <span className="hidden text-xs text-muted lg:inline">Tab indents · Esc, Tab leaves</span>
          <Button
            size="sm"
            variant="ghost"
            disabled={formatted === null || formatted === text}
            onClick={() => formatted && onChange(formatted)}
          >
            Format
          </Button>
          <CopyButton size="sm" value={text} label="Copy the template JSON" />
        </div>
      </div>
      {syntax && (
        <Notice
          tone="danger"
          title={`Syntax error${syntax.line ? ` on line ${syntax.line}${syntax.column ? `, column ${syntax.column}` : ""}` : ""}`}
          action={
            syntax.line ? (
              <Button size="sm" onClick={() => textarea.current && revealLine(textarea.current, syntax.line!)}>
                Go to line
              </Button>
            ) : undefined
          }
        >
          {syntax.message}. Until it parses, the form and validation keep the last valid template.
        </Notice>
      )}
      <div className="grid gap-3 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="h-[max(24rem,calc(100vh-23rem))]">
          <JsonEditor
            id="template-json"
            value={text}
            onChange={onChange}
            marks={marks}
            textareaRef={textarea}
            describedBy="template-problems"
            invalid={syntax !== null || issues.some((i) => i.severity === "error")}
          />
        </div>
        <ProblemsList
          id="template-problems"
          verdict={verdict}
          lineOf={lineOf}
          onSelect={(issue) => {
            const line = lineOf(issue);
            if (line !== undefined && textarea.current) revealLine(textarea.current, line);
          }}
        />
      </div>
    </div>
  );
}

"use client";

import { AlertIcon, CheckIcon, cn, focusRing } from "@/components/ui";
import type { TemplateIssue } from "./template-issue";
import type { TemplateVerdict } from "./template-verdict";

/**
 * Every problem with the template (the verdict the toolbar counts and Commit obeys), with its path
 * and line; a click moves the cursor there.
 */
export function ProblemsList({
  id,
  verdict,
  lineOf,
  onSelect,
}: {
  id: string;
  verdict: TemplateVerdict;
  lineOf: (issue: TemplateIssue) => number | undefined;
  onSelect: (issue: TemplateIssue) => void;
}) {
  const { problems: issues, errors, warnings } = verdict;
  const validating = verdict.state === "checking";
  return (
    <section
      id={id}
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      className="flex scroll-mt-32 flex-col self-start rounded-lg border border-line bg-surface xl:max-h-[max(24rem,calc(100vh-23rem))]"
    >
      <header className="flex items-center gap-2 border-b border-line px-3.5 py-2">
        <h2 id={`${id}-title`} className="text-xs font-semibold tracking-wide text-muted uppercase">
          Problems
        </h2>
        {errors > 0 && (
          <span className="rounded-full bg-danger-soft px-1.5 text-xs font-medium text-danger tabular-nums">
            {errors}
          </span>
        )}
        {warnings > 0 && (
          <span className="rounded-full bg-warning-soft px-1.5 text-xs font-medium text-warning tabular-nums">
            {warnings}
          </span>
        )}
      </header>
      {issues.length === 0 ? (
        <p className="flex items-center gap-2 px-3.5 py-3 text-sm text-muted" role="status">
          {validating ? (
            "Checking…"
          ) : (
            <>
              <CheckIcon className="size-4 text-success" />
              The template matches the catalog schema.
            </>
          )}
        </p>
      ) : (
        <ul className="max-h-56 divide-y divide-line overflow-auto xl:max-h-none" data-testid="problems-list">
          {issues.map((issue, i) => {
            const line = lineOf(issue);
            return (
              <li key={`${issue.path}-${i}`}>
                <button
                  type="button"
                  onClick={() => onSelect(issue)}
                  className={cn(
                    "flex w-full items-start gap-2.5 px-3.5 py-2 text-left text-sm hover:bg-surface-muted/60",
                    focusRing,
                    "focus-visible:ring-inset",
                  )}
                >
                  <AlertIcon
                    className={cn(
                      "mt-0.5 size-3.5 shrink-0",
                      issue.severity === "error" ? "text-danger" : "text-warning",
                    )}
                  />
                  <span className="min-w-0 flex-1">
                    <code className="mb-0.5 block font-mono text-xs font-medium">
                      {issue.source === "syntax" ? "JSON text" : issue.path || "(template)"}
                    </code>
                    <span className="text-foreground/80">{issue.message}</span>
                    {issue.source === "server" && <span className="ml-1.5 text-xs text-muted">(server)</span>}
                  </span>
                  {line !== undefined && (
                    <span className="shrink-0 font-mono text-xs text-muted tabular-nums">Ln {line}</span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

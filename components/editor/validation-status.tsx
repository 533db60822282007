import { AlertIcon, CheckIcon, Spinner, cn } from "@/components/ui";
import type { TemplateIssue } from "./template-issue";

/** One glance at the draft's health: valid, checking, or how many problems. */
export function ValidationStatus({ issues, checking, syntaxError }: { issues: TemplateIssue[]; checking: boolean; syntaxError: boolean }) {
  const errors = issues.filter((i) => i.severity === "error").length + (syntaxError ? 1 : 0);
  const warnings = issues.filter((i) => i.severity === "warning").length;
  const base = "inline-flex h-6 items-center gap-1.5 rounded-full px-2 text-xs font-medium whitespace-nowrap";
  let body;
  if (errors > 0) {
    body = (
      <span className={cn(base, "bg-danger-soft text-danger")}>
        <AlertIcon className="size-3.5" />
        {errors} {errors === 1 ? "problem" : "problems"}
      </span>
    );
  } else if (checking) {
    body = (
      <span className={cn(base, "text-muted")}>
        <Spinner className="size-3" />
        Checking
      </span>
    );
  } else if (warnings > 0) {
    body = (
      <span className={cn(base, "bg-warning-soft text-warning")}>
        <AlertIcon className="size-3.5" />
        {warnings} {warnings === 1 ? "warning" : "warnings"}
      </span>
    );
  } else {
    body = (
      <span className={cn(base, "text-success")}>
        <CheckIcon className="size-3.5" />
        Valid
      </span>
    );
  }
  return (
    <span role="status" aria-live="polite" data-testid="validation-status">
      {body}
    </span>
  );
}

import { AlertIcon, CheckIcon, Spinner, cn } from "@/components/ui";
import type { TemplateVerdict } from "./template-verdict";

/** One glance at the draft's health: valid, checking, or how many problems (the problems panel's count). */
export function ValidationStatus({ verdict }: { verdict: TemplateVerdict }) {
  const { errors, warnings } = verdict;
  const base = "inline-flex h-6 items-center gap-1.5 rounded-full px-2 text-xs font-medium whitespace-nowrap";
  let body;
  if (verdict.state === "problems") {
    body = (
      <span className={cn(base, "bg-danger-soft text-danger")}>
        <AlertIcon className="size-3.5" />
        {errors} {errors === 1 ? "problem" : "problems"}
      </span>
    );
  } else if (verdict.state === "checking") {
    body = (
      <span className={cn(base, "text-muted")}>
        <Spinner className="size-3" />
        Checking
      </span>
    );
  } else if (verdict.state === "warnings") {
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

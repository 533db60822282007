import { AlertIcon, cn } from "@/components/ui";
import type { TemplateIssue } from "./template-issue";

/**
 * The messages about one field, under it. The path is shown when it is deeper than the field
 * itself (`connection.slug` under the model), so the person knows what to change.
 */
export function FieldIssues({
  id,
  issues,
  basePath,
  className,
}: {
  id?: string;
  issues: TemplateIssue[];
  basePath?: string;
  className?: string;
}) {
  if (issues.length === 0) return null;
  return (
    <ul id={id} className={cn("flex flex-col gap-1", className)} data-testid="field-issues">
      {issues.map((issue, i) => (
        <li
          key={`${issue.path}-${i}`}
          className={cn(
            "flex items-start gap-1.5 text-xs",
            issue.severity === "error" ? "text-danger" : "text-warning",
          )}
        >
          <AlertIcon className="mt-px size-3.5 shrink-0" />
          <span className="min-w-0">
            {issue.path !== "" && issue.path !== basePath && (
              <code className="mr-1 rounded bg-current/10 px-1 py-px font-mono text-[11px]">
                {relative(issue.path, basePath)}
              </code>
            )}
            {issue.message}
            {issue.source === "server" && <span className="ml-1.5 text-muted">(server)</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}

function relative(path: string, basePath?: string): string {
  if (!basePath || !path.startsWith(basePath)) return path;
  const rest = path.slice(basePath.length);
  return rest.startsWith(".") ? rest.slice(1) : rest || path;
}

export function hasError(issues: TemplateIssue[]): boolean {
  return issues.some((i) => i.severity === "error");
}

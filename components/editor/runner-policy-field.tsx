"use client";

import { cn } from "@/components/ui";
import { FieldIssues, hasError } from "./field-issues";
import { RUNNER_DEFAULT_HINTS, permissionLabel } from "./permission-labels";
import type { TemplateIssue } from "./template-issue";

/** runner.permissions.default as four choices with what each means; the radios are one tab stop. */
export function RunnerPolicyField({
  value,
  choices,
  onChange,
  issues,
  isDefault,
}: {
  value: string;
  choices: string[];
  onChange: (next: string) => void;
  issues: TemplateIssue[];
  isDefault: boolean;
}) {
  const known = choices.includes(value);
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={issues.length ? "field-runner-issues" : undefined}>
      <legend className="mb-1.5 flex w-full items-baseline justify-between text-sm font-medium">
        Tool permission policy
        <span className="text-xs font-normal text-muted">{isDefault ? "Default" : "runner.permissions.default"}</span>
      </legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {choices.map((choice) => {
          const checked = choice === value;
          return (
            <label
              key={choice}
              className={cn(
                "flex cursor-pointer items-start gap-2.5 rounded-lg border px-3 py-2.5 transition-colors",
                "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent",
                checked
                  ? "border-accent bg-accent-soft/60"
                  : "border-line hover:border-line-strong hover:bg-surface-muted/50",
              )}
            >
              <input
                type="radio"
                name="runner-permission-default"
                value={choice}
                checked={checked}
                onChange={() => onChange(choice)}
                className="mt-0.5 size-3.5 shrink-0 cursor-pointer accent-accent outline-none"
              />
              <span className="flex min-w-0 flex-col gap-0.5">
                <span className="text-sm font-medium">
                  {permissionLabel(choice)}{" "}
                  <code className="ml-1 font-mono text-[11px] font-normal text-muted">{choice}</code>
                </span>
                <span className="text-xs text-muted">{RUNNER_DEFAULT_HINTS[choice] ?? ""}</span>
              </span>
            </label>
          );
        })}
      </div>
      {!known && issues.length === 0 && (
        <p className={cn("text-xs", hasError(issues) ? "text-danger" : "text-muted")}>
          The template says <code className="font-mono">{JSON.stringify(value)}</code>; pick one of the choices above.
        </p>
      )}
      <FieldIssues id="field-runner-issues" issues={issues} basePath="runner.permissions.default" />
    </fieldset>
  );
}

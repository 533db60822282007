"use client";

import { cn } from "@/components/ui";
import { FieldIssues, hasError } from "./field-issues";
import { FieldLabel } from "./field-label";
import { FormSection } from "./form-section";
import { readText, writeText, type Template } from "./template-fields";
import type { TemplateIssue } from "./template-issue";

/** instructions.agents_md: the system prompt, a large monospace text area. */
export function InstructionsField({
  template,
  onChange,
  issues,
  defaultText,
}: {
  template: Template;
  onChange: (next: Template) => void;
  issues: TemplateIssue[];
  defaultText: string;
}) {
  const value = readText(template, "agentsMd");
  const text = value ?? "";
  const lines = text === "" ? 0 : text.split("\n").length;
  const invalid = hasError(issues);
  return (
    <FormSection
      id="section-instructions"
      title="Instructions"
      description="The system prompt. The harness receives it as AGENTS.md at the start of every session."
      invalid={invalid}
    >
      <div className="flex flex-col gap-1.5">
        <FieldLabel
          htmlFor="field-agents-md"
          aside={
            value === undefined
              ? "Not set: the built-in default applies"
              : `${lines} ${lines === 1 ? "line" : "lines"} · ${text.length.toLocaleString("en")} characters`
          }
        >
          AGENTS.md
        </FieldLabel>
        <textarea
          id="field-agents-md"
          value={text}
          placeholder={defaultText}
          onChange={(event) => onChange(writeText(template, "agentsMd", event.target.value))}
          spellCheck={false}
          aria-invalid={invalid || undefined}
          aria-describedby={issues.length ? "field-agents-md-issues" : undefined}
          rows={14}
          className={cn(
            "min-h-64 w-full resize-y rounded-lg border border-line bg-background/60 px-3.5 py-3 font-mono text-[13px] leading-relaxed text-foreground",
            "placeholder:text-muted/60 outline-none focus:border-accent focus:bg-surface focus:ring-3 focus:ring-accent/20",
            "aria-invalid:border-danger",
          )}
        />
        <FieldIssues id="field-agents-md-issues" issues={issues} basePath="instructions.agents_md" />
      </div>
    </FormSection>
  );
}

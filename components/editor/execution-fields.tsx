"use client";

import { FieldIssues, hasError } from "./field-issues";
import { FieldLabel } from "./field-label";
import { FormSection } from "./form-section";
import { issuesForField } from "./issue-fields";
import { RunnerPolicyField } from "./runner-policy-field";
import type { TemplateOptions } from "./schema-options";
import { SelectInput } from "./select-input";
import { readText, writeText, type Template } from "./template-fields";
import type { TemplateIssue } from "./template-issue";
import type { HarnessInfo } from "./types";

const SANDBOX_LABELS: Record<string, string> = {
  local: "Local (in the service)",
  daytona_sandbox: "Daytona (hosted sandbox)",
};

/** How the agent runs: the runner's tool policy, the harness it drives and the sandbox it runs in. */
export function ExecutionFields({
  template,
  onChange,
  issues,
  options,
  harnesses,
}: {
  template: Template;
  onChange: (next: Template) => void;
  issues: TemplateIssue[];
  options: TemplateOptions;
  harnesses: HarnessInfo[];
}) {
  const runner = readText(template, "runnerDefault");
  const harnessKind = readText(template, "harnessKind") ?? options.defaults.harnessKind;
  const sandboxKind = readText(template, "sandboxKind") ?? options.defaults.sandboxKind;
  const harness = harnesses.find((h) => h.kind === harnessKind);
  const runnerIssues = issuesForField(issues, "runner");
  const harnessIssues = issuesForField(issues, "harness");
  const sandboxIssues = issuesForField(issues, "sandbox");
  const kinds = withCurrent(options.harnessKinds, harnessKind);
  const sandboxes = withCurrent(options.sandboxKinds, sandboxKind);

  return (
    <FormSection
      id="section-execution"
      title="Execution"
      description="Who approves tool calls, which coding agent drives the loop, and where it runs."
      invalid={hasError([...runnerIssues, ...harnessIssues, ...sandboxIssues])}
    >
      <RunnerPolicyField
        value={runner ?? options.defaults.runnerDefault}
        isDefault={runner === undefined}
        choices={options.runnerDefaults}
        onChange={(next) => onChange(writeText(template, "runnerDefault", next))}
        issues={runnerIssues}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <KindSelect
          id="field-harness"
          label="Harness"
          value={harnessKind}
          choices={kinds.map((kind) => ({
            value: kind,
            label: harnesses.find((h) => h.kind === kind)?.display_name ?? kind,
          }))}
          hint={harness?.description ?? options.descriptions.harnessKind}
          issues={harnessIssues}
          basePath="harness.kind"
          onChange={(next) => onChange(writeText(template, "harnessKind", next))}
        />
        <KindSelect
          id="field-sandbox"
          label="Sandbox"
          value={sandboxKind}
          choices={sandboxes.map((kind) => ({ value: kind, label: SANDBOX_LABELS[kind] ?? kind }))}
          hint={options.descriptions.sandboxKind ?? "Where the agent runs."}
          issues={sandboxIssues}
          basePath="sandbox.kind"
          onChange={(next) => onChange(writeText(template, "sandboxKind", next))}
        />
      </div>
    </FormSection>
  );
}

/** A labelled select of kinds, with its hint and the issues of its field. */
function KindSelect({
  id,
  label,
  value,
  choices,
  hint,
  issues,
  basePath,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  choices: { value: string; label: string }[];
  hint?: string;
  issues: TemplateIssue[];
  basePath: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <SelectInput
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={hasError(issues) || undefined}
        aria-describedby={`${id}-hint`}
      >
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </SelectInput>
      <p id={`${id}-hint`} className="text-xs text-muted">
        {hint}
      </p>
      <FieldIssues issues={issues} basePath={basePath} />
    </div>
  );
}

/** The choices, plus the template's own value when it is not one of them (so the select shows the truth). */
function withCurrent(choices: string[], current: string): string[] {
  return choices.includes(current) ? choices : [...choices, current];
}

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

const SANDBOX_LABELS: Record<string, string> = { local: "Local (in the service)", daytona_sandbox: "Daytona (hosted sandbox)" };

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
        <div className="flex flex-col gap-1.5">
          <FieldLabel htmlFor="field-harness">Harness</FieldLabel>
          <SelectInput
            id="field-harness"
            value={harnessKind}
            onChange={(event) => onChange(writeText(template, "harnessKind", event.target.value))}
            aria-invalid={hasError(harnessIssues) || undefined}
            aria-describedby="field-harness-hint"
          >
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {harnesses.find((h) => h.kind === kind)?.display_name ?? kind}
              </option>
            ))}
          </SelectInput>
          <p id="field-harness-hint" className="text-xs text-muted">
            {harness?.description ?? options.descriptions.harnessKind}
          </p>
          <FieldIssues issues={harnessIssues} basePath="harness.kind" />
        </div>
        <div className="flex flex-col gap-1.5">
          <FieldLabel htmlFor="field-sandbox">Sandbox</FieldLabel>
          <SelectInput
            id="field-sandbox"
            value={sandboxKind}
            onChange={(event) => onChange(writeText(template, "sandboxKind", event.target.value))}
            aria-invalid={hasError(sandboxIssues) || undefined}
            aria-describedby="field-sandbox-hint"
          >
            {sandboxes.map((kind) => (
              <option key={kind} value={kind}>
                {SANDBOX_LABELS[kind] ?? kind}
              </option>
            ))}
          </SelectInput>
          <p id="field-sandbox-hint" className="text-xs text-muted">
            {options.descriptions.sandboxKind ?? "Where the agent runs."}
          </p>
          <FieldIssues issues={sandboxIssues} basePath="sandbox.kind" />
        </div>
      </div>
    </FormSection>
  );
}

/** The choices, plus the template's own value when it is not one of them (so the select shows the truth). */
function withCurrent(choices: string[], current: string): string[] {
  return choices.includes(current) ? choices : [...choices, current];
}

"use client";

import Link from "next/link";
import { Notice, buttonClass } from "@/components/ui";
import { ExecutionFields } from "./execution-fields";
import { FieldIssues } from "./field-issues";
import { issuesForField, issuesWithoutField } from "./issue-fields";
import { InstructionsField } from "./instructions-field";
import { isPlainObject } from "./json-path";
import { ModelPicker } from "./model-picker";
import type { TemplateOptions } from "./schema-options";
import { readText, type Template } from "./template-fields";
import type { TemplateIssue } from "./template-issue";
import type { JsonSyntaxError } from "./template-text";
import { ToolsEditor } from "./tools-editor";
import type { HarnessInfo } from "./types";

/** The common fields of the template; everything else stays as the JSON view has it. */
export function TemplateForm({
  value,
  onChange,
  issues,
  options,
  harnesses,
  syntaxError,
  jsonHref,
}: {
  value: unknown;
  onChange: (next: Template) => void;
  issues: TemplateIssue[];
  options: TemplateOptions;
  harnesses: HarnessInfo[];
  syntaxError: JsonSyntaxError | null;
  jsonHref: string;
}) {
  const openJson = (
    <Link href={jsonHref} scroll={false} className={buttonClass({ size: "sm" })}>
      Open JSON view
    </Link>
  );
  if (!isPlainObject(value)) {
    return (
      <Notice tone="danger" title="The template is not a JSON object" action={openJson}>
        The form edits an object with fields like instructions and llm. Fix the JSON view to continue here.
      </Notice>
    );
  }
  const template = value;
  const harness = harnesses.find((h) => h.kind === (readText(template, "harnessKind") ?? options.defaults.harnessKind));
  const other = issuesWithoutField(issues);

  return (
    <div className="flex flex-col gap-5">
      {syntaxError && (
        <Notice tone="danger" title="The JSON view has a syntax error" action={openJson}>
          {syntaxError.line ? `Line ${syntaxError.line}: ` : ""}
          {syntaxError.message}. The form shows the last valid template and is read-only until the JSON parses again.
        </Notice>
      )}
      {other.length > 0 && (
        <Notice
          tone={other.some((i) => i.severity === "error") ? "danger" : "warning"}
          title="Problems outside the form's fields"
          action={openJson}
        >
          <FieldIssues issues={other} className="mt-1" />
        </Notice>
      )}
      <fieldset disabled={syntaxError !== null} className="flex min-w-0 flex-col gap-5 disabled:opacity-70">
        <legend className="sr-only">Agent template</legend>
        <InstructionsField
          template={template}
          onChange={onChange}
          issues={issuesForField(issues, "instructions")}
          defaultText={options.defaults.agentsMd}
        />
        <ModelPicker
          template={template}
          onChange={onChange}
          harness={harness}
          issues={issuesForField(issues, "model")}
        />
        <ToolsEditor
          template={template}
          onChange={onChange}
          issues={issues.filter((i) => i.path.startsWith("tools"))}
          options={options}
          harness={harness}
        />
        <ExecutionFields
          template={template}
          onChange={onChange}
          issues={issues}
          options={options}
          harnesses={harnesses}
        />
      </fieldset>
      <p className="pb-2 text-center text-xs text-muted">
        MCP servers, skills, the LLM connection and extras are edited in the{" "}
        <Link href={jsonHref} scroll={false} className="font-medium text-accent hover:underline">
          JSON view
        </Link>
        .
      </p>
    </div>
  );
}

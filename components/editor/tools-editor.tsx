"use client";

import { useState } from "react";
import { Button, PlusIcon } from "@/components/ui";
import { AddToolPanel } from "./add-tool-panel";
import { FieldIssues, hasError } from "./field-issues";
import { issuesForField } from "./issue-fields";
import type { TemplateOptions } from "./schema-options";
import {
  addTool,
  builtinNamesIn,
  readText,
  readTools,
  removeTool,
  writeToolField,
  type Template,
} from "./template-fields";
import type { TemplateIssue } from "./template-issue";
import { ToolRow } from "./tool-row";
import { FormSection } from "./form-section";
import type { HarnessInfo } from "./types";

/** The tools list: add, remove, and a permission per tool that overrides the runner policy. */
export function ToolsEditor({
  template,
  onChange,
  issues,
  options,
  harness,
}: {
  template: Template;
  onChange: (next: Template) => void;
  issues: TemplateIssue[];
  options: TemplateOptions;
  harness?: HarnessInfo;
}) {
  const [adding, setAdding] = useState(false);
  const tools = readTools(template);
  const builtins = harness?.builtin_tools ?? options.builtinNames.map((name) => ({ name, read_only: false }));
  const readOnly = new Set(builtins.filter((b) => b.read_only).map((b) => b.name));
  const inherited = readText(template, "runnerDefault") ?? options.defaults.runnerDefault;
  const listIssues = issuesForField(issues, "tools");

  return (
    <FormSection
      id="section-tools"
      title="Tools"
      description="What the agent can call. A tool without its own permission follows the runner policy below."
      invalid={hasError(issues)}
      actions={
        !adding && (
          <Button size="sm" onClick={() => setAdding(true)}>
            <PlusIcon className="size-3.5" />
            Add tool
          </Button>
        )
      }
    >
      {tools.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-muted">
          No tools: the agent can only answer in text.
        </p>
      ) : (
        <ul aria-label="Tools" className="divide-y divide-line rounded-lg border border-line">
          {tools.map((entry, index) => (
            <ToolRow
              key={index}
              entry={entry}
              index={index}
              permissions={options.toolPermissions}
              runtimes={options.codeRuntimes}
              inherited={inherited}
              readOnlyBuiltins={readOnly}
              issues={issuesForField(issues, `tool:${index}`)}
              onField={(key, value) => onChange(writeToolField(template, index, key, value))}
              onRemove={() => onChange(removeTool(template, index))}
            />
          ))}
        </ul>
      )}
      {adding && (
        <AddToolPanel
          builtins={builtins}
          present={builtinNamesIn(template)}
          runtimes={options.codeRuntimes}
          onAdd={(entry) => onChange(addTool(template, entry))}
          onClose={() => setAdding(false)}
        />
      )}
      <FieldIssues issues={listIssues} basePath="tools" />
    </FormSection>
  );
}

"use client";

import { TrashIcon } from "@/components/agents";
import { Badge, Button, Input } from "@/components/ui";
import { FieldIssues, hasError } from "./field-issues";
import { isPlainObject } from "./json-path";
import { permissionLabel } from "./permission-labels";
import { SelectInput } from "./select-input";
import { summarizeTool } from "./template-fields";
import type { TemplateIssue } from "./template-issue";
import { ToolTypeBadge } from "./tool-type-badge";

export interface ToolRowProps {
  entry: unknown;
  index: number;
  permissions: string[];
  runtimes: string[];
  /** runner.permissions.default, which a tool without its own permission inherits. */
  inherited: string;
  readOnlyBuiltins: ReadonlySet<string>;
  issues: TemplateIssue[];
  onField: (key: string, value: unknown) => void;
  onRemove: () => void;
}

/** One tool entry: its kind, name, permission (not for built-ins) and the few fields its kind needs. */
export function ToolRow({
  entry,
  index,
  permissions,
  runtimes,
  inherited,
  readOnlyBuiltins,
  issues,
  onField,
  onRemove,
}: ToolRowProps) {
  const { type, label, permission } = summarizeTool(entry);
  const fields = isPlainObject(entry) ? entry : {};
  const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : "");
  const base = `tools[${index}]`;
  const issueOf = (key: string) => issues.filter((i) => i.path === `${base}.${key}`);
  const rest = issues.filter(
    (i) => !["name", "description", "script", "runtime", "permission"].some((k) => i.path === `${base}.${k}`),
  );
  const editableName = type === "client" || type === "code";
  const nameId = `tool-${index}-name`;

  return (
    <li className="flex flex-col gap-3 px-4 py-3" data-testid="tool-row" data-tool-type={type}>
      <div className="flex items-center gap-3">
        <ToolTypeBadge type={type} />
        {editableName ? (
          <Input
            id={nameId}
            aria-label={`Name of tool ${index + 1}`}
            value={text("name")}
            placeholder="tool_name"
            onChange={(event) => onField("name", event.target.value)}
            spellCheck={false}
            autoComplete="off"
            className="h-7! max-w-64 font-mono text-[13px]!"
            aria-invalid={hasError(issueOf("name")) || undefined}
          />
        ) : (
          <span className="min-w-0 truncate font-mono text-[13px] font-medium">{label}</span>
        )}
        {type === "builtin" && readOnlyBuiltins.has(label) && <Badge>read-only</Badge>}
        <div className="ml-auto flex shrink-0 items-center gap-1.5">
          {type === "builtin" ? (
            <span
              className="text-xs text-muted"
              title="Built-in tools follow the runner policy; a per-tool permission cannot be enforced on them."
            >
              Runner policy
            </span>
          ) : (
            <SelectInput
              aria-label={`Permission of ${label}`}
              value={permission ?? ""}
              onChange={(event) => onField("permission", event.target.value === "" ? undefined : event.target.value)}
              className="h-7! w-44 text-xs!"
              aria-invalid={hasError(issueOf("permission")) || undefined}
            >
              <option value="">Inherit ({permissionLabel(inherited)})</option>
              {permissions.map((p) => (
                <option key={p} value={p}>
                  {permissionLabel(p)}
                </option>
              ))}
            </SelectInput>
          )}
          <Button
            variant="ghost"
            size="sm"
            className="w-7 px-0! hover:text-danger"
            aria-label={`Remove ${label}`}
            title="Remove"
            onClick={onRemove}
          >
            <TrashIcon className="size-3.5" />
          </Button>
        </div>
      </div>
      {(type === "client" || type === "code") && (
        <div className="flex flex-col gap-3 pl-[5.25rem]">
          <Input
            aria-label={`Description of ${label}`}
            value={text("description")}
            placeholder="What the tool does, for the model (optional)"
            onChange={(event) => onField("description", event.target.value === "" ? undefined : event.target.value)}
            className="h-7! text-[13px]!"
          />
          {type === "code" && (
            <div className="flex flex-col gap-2">
              <div className="flex items-center gap-2">
                <label htmlFor={`tool-${index}-runtime`} className="text-xs text-muted">
                  Runtime
                </label>
                <SelectInput
                  id={`tool-${index}-runtime`}
                  value={text("runtime") || runtimes[0]}
                  onChange={(event) => onField("runtime", event.target.value)}
                  className="h-7! w-28 text-xs!"
                >
                  {runtimes.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </SelectInput>
              </div>
              <textarea
                aria-label={`Script of ${label}`}
                value={text("script")}
                onChange={(event) => onField("script", event.target.value)}
                rows={4}
                spellCheck={false}
                placeholder="print('hello')"
                aria-invalid={hasError(issueOf("script")) || undefined}
                className="w-full resize-y rounded-md border border-line bg-background/60 px-3 py-2 font-mono text-xs leading-relaxed outline-none focus:border-accent focus:ring-3 focus:ring-accent/20 aria-invalid:border-danger"
              />
            </div>
          )}
        </div>
      )}
      {!["builtin", "client", "code"].includes(type) && (
        <p className="pl-[5.25rem] text-xs text-muted">
          The other fields of a {type} tool are edited in the JSON view.
        </p>
      )}
      <FieldIssues
        className="pl-[5.25rem]"
        basePath={base}
        issues={[
          ...issueOf("name"),
          ...issueOf("description"),
          ...issueOf("runtime"),
          ...issueOf("script"),
          ...issueOf("permission"),
          ...rest,
        ]}
      />
    </li>
  );
}

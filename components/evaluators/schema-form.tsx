"use client";

import { useId, useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { Input, Textarea } from "@/components/ui";
import { JudgeModelField } from "./judge-model-field";
import { PromptMessagesField } from "./prompt-messages-field";
import { fieldKind, fieldLabel, shownParameters } from "./schema-fields";
import type { Parameters, SchemaNode } from "./types";

function JsonField({ id, value, onChange }: { id: string; value: unknown; onChange: (next: unknown) => void }) {
  const [text, setText] = useState(() => (value === undefined ? "" : JSON.stringify(value, null, 2)));
  const [invalid, setInvalid] = useState(false);
  return (
    <>
      <Textarea
        look="code"
        id={id}
        rows={5}
        value={text}
        aria-invalid={invalid || undefined}
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === "") {
            setInvalid(false);
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(e.target.value));
            setInvalid(false);
          } catch {
            setInvalid(true);
          }
        }}
      />
      {invalid && <p className="text-xs text-danger">Not valid JSON yet: the last valid value is kept.</p>}
    </>
  );
}

/** One parameter: its label, the input its schema calls for, and its description. */
function Field({
  name,
  node,
  required,
  parameters,
  onChange,
}: {
  name: string;
  node: SchemaNode;
  required: boolean;
  parameters: Parameters;
  onChange: (next: Parameters) => void;
}) {
  const id = `param-${useId()}`;
  const value = parameters[name];
  const set = (next: unknown) => onChange({ ...parameters, [name]: next });
  const kind = fieldKind(name, node);
  const placeholder = node.default !== undefined ? `Default: ${String(node.default)}` : undefined;
  let input;
  switch (kind.kind) {
    case "enum":
      input = (
        <SelectInput
          id={id}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => set(e.target.value || undefined)}
        >
          {!required && <option value="">{placeholder ?? "Not set"}</option>}
          {kind.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </SelectInput>
      );
      break;
    case "boolean": {
      const checked = typeof value === "boolean" ? value : node.default === true;
      input = (
        <label className="flex items-center gap-2 text-sm">
          <input id={id} type="checkbox" checked={checked} onChange={(e) => set(e.target.checked)} className="size-4" />
          {checked ? "Yes" : "No"}
        </label>
      );
      break;
    }
    case "number":
      input = (
        <Input
          id={id}
          type="number"
          inputMode="decimal"
          step={kind.integer ? 1 : "any"}
          value={typeof value === "number" ? value : ""}
          placeholder={placeholder}
          onChange={(e) => set(e.target.value === "" ? undefined : Number(e.target.value))}
        />
      );
      break;
    case "text":
      input = kind.multiline ? (
        <Textarea
          look="code"
          id={id}
          rows={name === "code" ? 10 : 3}
          spellCheck={false}
          value={typeof value === "string" ? value : ""}
          placeholder={placeholder}
          onChange={(e) => set(e.target.value)}
        />
      ) : (
        <Input
          id={id}
          value={typeof value === "string" ? value : ""}
          placeholder={placeholder}
          onChange={(e) => set(e.target.value)}
        />
      );
      break;
    case "list":
      input = (
        <Textarea
          look="code"
          id={id}
          rows={3}
          value={Array.isArray(value) ? value.join("\n") : ""}
          placeholder="One per line"
          onChange={(e) => set(e.target.value.split("\n").filter((line) => line !== ""))}
        />
      );
      break;
    case "messages":
      input = <PromptMessagesField id={id} value={value} onChange={set} />;
      break;
    case "model":
      input = (
        <JudgeModelField
          id={id}
          model={typeof value === "string" ? value : String(node.default ?? "")}
          connection={typeof parameters.connection === "string" ? parameters.connection : undefined}
          onChange={({ model, connection }) => onChange({ ...parameters, model, connection })}
        />
      );
      break;
    default:
      input = <JsonField id={id} value={value} onChange={set} />;
  }
  return (
    <div className="flex min-w-0 flex-col gap-1.5" data-testid={`param-${name}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {fieldLabel(name)}
        {required && <span className="text-danger"> *</span>}
      </label>
      {input}
      {node.description && <p className="text-xs text-muted">{node.description}</p>}
    </div>
  );
}

/**
 * The parameters of an evaluator template as a form, built from the template's JSON Schema: a
 * select for an enum, a checkbox for a flag, the prompt editor for a judge's messages, the model
 * picker for its model; JSON only for free-form objects (a matcher tree, a response schema).
 */
export function SchemaForm({
  schema,
  parameters,
  onChange,
}: {
  schema: SchemaNode;
  parameters: Parameters;
  onChange: (next: Parameters) => void;
}) {
  const required = new Set(schema.required ?? []);
  const entries = shownParameters(schema, parameters);
  if (entries.length === 0) return <p className="text-sm text-muted">This evaluator takes no parameters.</p>;
  return (
    <div className="flex flex-col gap-4">
      {entries.map(([name, node]) => (
        <Field
          key={name}
          name={name}
          node={node}
          required={required.has(name)}
          parameters={parameters}
          onChange={onChange}
        />
      ))}
    </div>
  );
}

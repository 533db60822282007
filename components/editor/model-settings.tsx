"use client";

import { Input } from "@/components/ui";
import { FieldLabel } from "./field-label";
import { SelectInput } from "./select-input";
import { readLlmExtra, writeLlmExtra, type Template } from "./template-fields";

const EFFORTS = ["minimal", "low", "medium", "high"];

/**
 * Temperature, max output tokens and reasoning effort, kept in `llm.extras` under the names the
 * runner reads (`temperature` and `max_output_tokens` are call settings every provider takes;
 * `reasoning_effort` goes to providers that reason). Blank removes the key: the provider's default.
 */
export function ModelSettings({ template, onChange }: { template: Template; onChange: (next: Template) => void }) {
  const number = (key: string) => {
    const value = readLlmExtra(template, key);
    return typeof value === "number" ? String(value) : "";
  };
  const setNumber = (key: string, text: string, integer: boolean) => {
    const value = text.trim() === "" ? undefined : Number(text);
    if (value !== undefined && (!Number.isFinite(value) || (integer && !Number.isInteger(value)))) return;
    onChange(writeLlmExtra(template, key, value));
  };
  const effort = readLlmExtra(template, "reasoning_effort");
  return (
    <fieldset className="grid gap-4 border-t border-line pt-4 sm:grid-cols-3">
      <legend className="sr-only">Model settings</legend>
      <div className="flex flex-col gap-1.5">
        <FieldLabel htmlFor="field-temperature" aside="0 to 2">
          Temperature
        </FieldLabel>
        <Input
          id="field-temperature"
          type="number"
          inputMode="decimal"
          min={0}
          max={2}
          step={0.1}
          placeholder="provider default"
          value={number("temperature")}
          onChange={(e) => setNumber("temperature", e.target.value, false)}
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <FieldLabel htmlFor="field-max-tokens">Max output tokens</FieldLabel>
        <Input
          id="field-max-tokens"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          placeholder="provider default"
          value={number("max_output_tokens")}
          onChange={(e) => setNumber("max_output_tokens", e.target.value, true)}
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <FieldLabel htmlFor="field-reasoning-effort">Reasoning effort</FieldLabel>
        <SelectInput
          id="field-reasoning-effort"
          value={typeof effort === "string" ? effort : ""}
          onChange={(e) => onChange(writeLlmExtra(template, "reasoning_effort", e.target.value || undefined))}
        >
          <option value="">Provider default</option>
          {EFFORTS.map((level) => (
            <option key={level} value={level}>
              {level}
            </option>
          ))}
          {typeof effort === "string" && !EFFORTS.includes(effort) && <option value={effort}>{effort}</option>}
        </SelectInput>
      </div>
    </fieldset>
  );
}

"use client";

import { SelectInput } from "@/components/editor/select-input";
import type { Target } from "./use-targets";

/** Picks the API key or agent a control applies to; `eachLabel` offers "every one of them" (rate limits). */
export function TargetSelect({
  id,
  targets,
  value,
  onChange,
  eachLabel,
}: {
  id: string;
  targets: Target[];
  value: string;
  onChange: (value: string) => void;
  eachLabel?: string;
}) {
  return (
    <SelectInput id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      {eachLabel && <option value="">{eachLabel}</option>}
      {!eachLabel && !value && <option value="">Choose…</option>}
      {targets.map((target) => (
        <option key={target.id} value={target.id}>
          {target.label}
        </option>
      ))}
    </SelectInput>
  );
}

"use client";

import { useId } from "react";

export interface CanaryChoice {
  enabled: boolean;
  /** The new revision's first share of the traffic, percent. */
  weight: number;
  ramp: boolean;
  intervalMinutes: number;
}

export const NO_CANARY: CanaryChoice = { enabled: false, weight: 5, ramp: false, intervalMinutes: 30 };
/** The shares a ramp moves through (those above the first share); 100 promotes. */
export const RAMP_STEPS = [5, 25, 50, 100];

const inputClass =
  "w-20 rounded-md border border-line bg-surface px-2 py-1 text-sm shadow-xs outline-none focus:border-accent focus:ring-3 focus:ring-accent/20";

/** The deploy dialog's choice of a canary: a share of the traffic first, optionally ramped. */
export function CanaryOptions({
  choice,
  onChange,
  env,
}: {
  choice: CanaryChoice;
  onChange: (choice: CanaryChoice) => void;
  env: string;
}) {
  const weightId = useId();
  const intervalId = useId();
  const steps = RAMP_STEPS.filter((w) => w > choice.weight);
  return (
    <fieldset
      className="mb-4 flex flex-col gap-3 rounded-lg border border-line px-4 py-3 text-sm"
      data-testid="canary-options"
    >
      <legend className="px-1 font-medium">Release</legend>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={choice.enabled}
          onChange={(e) => onChange({ ...choice, enabled: e.target.checked })}
        />
        Release as a canary: send a share of {env}&apos;s traffic to the new revision, beside what runs now
      </label>
      {choice.enabled && (
        <div className="flex flex-col gap-3 pl-6">
          <div className="flex items-center gap-2">
            <label htmlFor={weightId}>Share of traffic</label>
            <input
              id={weightId}
              type="number"
              min={1}
              max={99}
              value={choice.weight}
              onChange={(e) => onChange({ ...choice, weight: Math.min(99, Math.max(1, Number(e.target.value) || 1)) })}
              className={inputClass}
            />
            <span className="text-muted">%</span>
          </div>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={choice.ramp}
              onChange={(e) => onChange({ ...choice, ramp: e.target.checked })}
            />
            Ramp up to {steps.join("%, ")}% (promotes at 100%)
          </label>
          {choice.ramp && (
            <div className="flex items-center gap-2">
              <label htmlFor={intervalId}>One step every</label>
              <input
                id={intervalId}
                type="number"
                min={1}
                max={10_080}
                value={choice.intervalMinutes}
                onChange={(e) => onChange({ ...choice, intervalMinutes: Math.max(1, Number(e.target.value) || 1) })}
                className={inputClass}
              />
              <span className="text-muted">minutes</span>
            </div>
          )}
        </div>
      )}
    </fieldset>
  );
}

"use client";

import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useTRPC } from "@/components/trpc";

export interface CanaryChoice {
  enabled: boolean;
  /** The new revision's first share of the traffic, percent. */
  weight: number;
  ramp: boolean;
  intervalMinutes: number;
  /** Monitors whose firing rolls the canary back. */
  monitors: string[];
}

export const NO_CANARY: CanaryChoice = { enabled: false, weight: 5, ramp: false, intervalMinutes: 30, monitors: [] };
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
          <MonitorGuards choice={choice} onChange={onChange} />
        </div>
      )}
    </fieldset>
  );
}

/**
 * The project's monitors, to pick those whose firing rolls the canary back. One alerting now
 * cannot fire during the canary, so the server refuses it: it is shown but cannot be picked.
 */
function MonitorGuards({ choice, onChange }: { choice: CanaryChoice; onChange: (choice: CanaryChoice) => void }) {
  const trpc = useTRPC();
  const monitors = useQuery(trpc.monitors.list.queryOptions());
  const toggle = (id: string, on: boolean) =>
    onChange({ ...choice, monitors: on ? [...choice.monitors, id] : choice.monitors.filter((m) => m !== id) });
  return (
    <div className="flex flex-col gap-1" data-testid="canary-monitors">
      <span>Roll back if a monitor fires</span>
      {monitors.isPending && <span className="text-muted">Loading monitors…</span>}
      {monitors.data?.length === 0 && (
        <span className="text-muted">No monitors in this project yet (Monitors page).</span>
      )}
      {monitors.data?.map((m) => (
        <label key={m.id} className="flex items-center gap-2 pl-2">
          <input
            type="checkbox"
            checked={choice.monitors.includes(m.id)}
            disabled={m.state === "alerting"}
            onChange={(e) => toggle(m.id, e.target.checked)}
          />
          {m.name}
          {m.state === "alerting" && <span className="text-xs text-danger">alerting now</span>}
        </label>
      ))}
    </div>
  );
}

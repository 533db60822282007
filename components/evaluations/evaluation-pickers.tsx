"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { newEvaluatorPath } from "@/components/evaluators/evaluator-paths";
import { useTRPC } from "@/components/trpc";
import { Skeleton } from "@/components/ui";

/** The pickers a form that starts evaluation work shares: a testset revision, evaluators, checkboxes. */

export function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="flex min-w-0 flex-col gap-1.5">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {children}
    </fieldset>
  );
}

export function Check({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="flex min-w-0 items-start gap-2 rounded-md px-1 py-0.5 text-sm hover:bg-surface-muted">
      <input
        type="checkbox"
        className="mt-0.5 size-4 shrink-0"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className="min-w-0 break-words">{children}</span>
    </label>
  );
}

export const toggle = (list: string[], value: string, on: boolean) =>
  on ? [...list, value] : list.filter((v) => v !== value);

/**
 * An agent of the project. `onPick` gets its id and its default variant, whose history holds the
 * revisions a form picks from next.
 */
export function AgentSelect({
  value,
  onPick,
  enabled,
}: {
  value: string;
  onPick: (agentId: string, variantId: string | undefined) => void;
  enabled: boolean;
}) {
  const trpc = useTRPC();
  const agents = useQuery({ ...trpc.agents.list.queryOptions({ limit: 200 }), enabled });
  return (
    <label className="flex flex-col gap-1.5 text-sm font-medium">
      Agent
      <SelectInput
        value={value}
        onChange={(e) => {
          const agentId = e.target.value;
          onPick(agentId, agents.data?.items.find((a) => a.agent.id === agentId)?.defaultVariantId ?? undefined);
        }}
      >
        <option value="">Pick an agent</option>
        {(agents.data?.items ?? []).map((a) => (
          <option key={a.agent.id} value={a.agent.id}>
            {a.agent.name ?? a.agent.slug}
          </option>
        ))}
      </SelectInput>
    </label>
  );
}

/** A testset revision, grouped by testset, newest revisions first. */
export function TestsetRevisionSelect({
  value,
  onChange,
  enabled,
}: {
  value: string;
  onChange: (revisionId: string) => void;
  enabled: boolean;
}) {
  const trpc = useTRPC();
  const testsets = useQuery({ ...trpc.evaluations.testsets.queryOptions(), enabled });
  return (
    <label className="flex flex-col gap-1.5 text-sm font-medium">
      Testset
      {testsets.isPending ? (
        <Skeleton className="h-8" />
      ) : (
        <SelectInput value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">
            {testsets.data?.length ? "Pick a testset revision" : "No testset yet: create one under Testsets"}
          </option>
          {(testsets.data ?? []).map((t) => (
            <optgroup key={t.testset.id} label={t.testset.name ?? t.testset.slug}>
              {t.revisions.map((r) => (
                <option key={r.id} value={r.id}>
                  {(t.testset.name ?? t.testset.slug) + ` · v${r.version}` + (r.message ? ` · ${r.message}` : "")}
                </option>
              ))}
            </optgroup>
          ))}
        </SelectInput>
      )}
    </label>
  );
}

/** Evaluators by their latest revision; `label` marks some (a human evaluator in a queue). */
export function EvaluatorChecklist({
  picked,
  onPick,
  enabled,
  label,
}: {
  picked: string[];
  onPick: (revisionIds: string[]) => void;
  enabled: boolean;
  label?: (uri: unknown) => ReactNode;
}) {
  const trpc = useTRPC();
  const evaluators = useQuery({ ...trpc.evaluators.list.queryOptions(), enabled });
  return (
    <Fieldset legend="Evaluators">
      {evaluators.isPending ? (
        <Skeleton className="h-12" />
      ) : evaluators.data?.length ? (
        <div className="max-h-40 overflow-auto">
          {evaluators.data.map(({ evaluator, revisions }) => {
            const latest = revisions[0];
            if (!latest) return null;
            return (
              <Check
                key={evaluator.id}
                checked={picked.includes(latest.id)}
                onChange={(on) => onPick(toggle(picked, latest.id, on))}
              >
                {evaluator.name ?? evaluator.slug} <span className="text-muted">· v{latest.version}</span>{" "}
                {label?.(latest.data?.uri)}
              </Check>
            );
          })}
        </div>
      ) : (
        <p className="text-sm text-muted">
          No evaluator yet.{" "}
          <a href={newEvaluatorPath()} className="text-accent underline">
            Create one
          </a>
          .
        </p>
      )}
    </Fieldset>
  );
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { useAccount } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Button, Input, Notice } from "@/components/ui";
import { ControlCard } from "./control-card";
import { Field } from "./field";
import { SpendBar } from "./spend-bar";
import { TargetSelect } from "./target-select";
import { useTargets } from "./use-targets";
import { formatUsd } from "./usd";

const WINDOWS = { day: "per day", week: "per week (from Monday)", month: "per calendar month" } as const;

/** Budgets with their current window's spend; owners add and remove them. */
export function BudgetsSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOwner = useAccount().current?.role === "owner";
  const budgets = useQuery(trpc.controls.budgets.list.queryOptions());
  const targets = useTargets();
  const remove = useMutation(
    trpc.controls.budgets.delete.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.controls.budgets.pathKey() }),
    }),
  );
  return (
    <ControlCard
      title="Budgets"
      testId="budgets"
      description="Spend in USD per day, week or calendar month in a time zone. Past its limit a budget refuses new turns (402) and ends running ones at their next step; its warning level and its limit each send an event webhooks can subscribe to."
      query={budgets}
      empty="No budget: runs spend without limit."
      canChange={isOwner}
      onRemove={(budget) => remove.mutate({ id: budget.id })}
      row={(budget) => (
        <div className="flex flex-col gap-1.5">
          <p className="text-sm">
            <strong>{budget.name}</strong> · {targets.labelOf(budget.scope, budget.target_id)} ·{" "}
            {formatUsd(budget.limit_usd)} {WINDOWS[budget.window]} in {budget.time_zone} · warns at{" "}
            {budget.warn_percent}%
          </p>
          <SpendBar spent={budget.spent_usd} limit={budget.limit_usd} warnPercent={budget.warn_percent} />
          <p className="text-xs text-muted">Resets {new Date(budget.resets_at).toLocaleString()}</p>
        </div>
      )}
      form={<BudgetForm />}
    />
  );
}

function BudgetForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const targets = useTargets();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<"project" | "agent" | "api_key">("project");
  const [target, setTarget] = useState("");
  const [window, setWindow] = useState<"day" | "week" | "month">("month");
  const [zone, setZone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
  const [limit, setLimit] = useState("");
  const [warn, setWarn] = useState("80");
  const [missing, setMissing] = useState<string>();
  const create = useMutation(
    trpc.controls.budgets.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.controls.budgets.pathKey() });
        setName("");
        setLimit("");
      },
    }),
  );
  return (
    <form
      aria-label="Add a budget"
      className="grid gap-3 border-t border-line pt-4 sm:grid-cols-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (scope !== "project" && !target) {
          setMissing(`Choose the ${scope === "agent" ? "agent" : "API key"} this budget applies to.`);
          return;
        }
        setMissing(undefined);
        create.mutate({
          name,
          scope,
          target_id: scope === "project" ? undefined : target || undefined,
          window,
          time_zone: zone,
          limit_usd: Number(limit),
          warn_percent: Number(warn),
        });
      }}
    >
      <Field id={`${id}-name`} label="Name">
        <Input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} required />
      </Field>
      <Field id={`${id}-scope`} label="Applies to">
        <SelectInput id={`${id}-scope`} value={scope} onChange={(e) => setScope(e.target.value as typeof scope)}>
          <option value="project">The project</option>
          <option value="agent">An agent</option>
          <option value="api_key">An API key</option>
        </SelectInput>
      </Field>
      {scope !== "project" && (
        <Field id={`${id}-target`} label={scope === "agent" ? "Agent" : "API key"}>
          <TargetSelect
            id={`${id}-target`}
            targets={scope === "agent" ? targets.agents : targets.apiKeys}
            value={target}
            onChange={(value) => {
              setTarget(value);
              setMissing(undefined);
            }}
          />
        </Field>
      )}
      <Field id={`${id}-window`} label="Window">
        <SelectInput id={`${id}-window`} value={window} onChange={(e) => setWindow(e.target.value as typeof window)}>
          {Object.entries(WINDOWS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectInput>
      </Field>
      <Field id={`${id}-zone`} label="Time zone (IANA)">
        <Input id={`${id}-zone`} value={zone} onChange={(e) => setZone(e.target.value)} className="font-mono" />
      </Field>
      <Field id={`${id}-limit`} label="Limit (USD)">
        <Input
          id={`${id}-limit`}
          inputMode="decimal"
          value={limit}
          onChange={(e) => setLimit(e.target.value)}
          required
        />
      </Field>
      <Field id={`${id}-warn`} label="Warn at (%)">
        <Input id={`${id}-warn`} inputMode="numeric" value={warn} onChange={(e) => setWarn(e.target.value)} />
      </Field>
      <div className="flex items-end">
        <Button type="submit" variant="primary" loading={create.isPending}>
          Add budget
        </Button>
      </div>
      {missing && (
        <div className="sm:col-span-4">
          <Notice tone="danger">{missing}</Notice>
        </div>
      )}
      {create.error && !missing && (
        <div className="sm:col-span-4">
          <Notice tone="danger">{create.error.message}</Notice>
        </div>
      )}
    </form>
  );
}

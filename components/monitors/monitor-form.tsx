"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, useSyncExternalStore } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { useTRPC } from "@/components/trpc";
import { Button, Notice, TextField } from "@/components/ui";
import type { MonitorWire } from "@/server/monitors";
import { isScoreMetric, METRIC_LABELS, METRIC_NAMES, type MetricName } from "@/shared/monitor-metrics";
import { isPercent } from "./monitor-draft";
import { useScopeChoices } from "./scope-choices";

const WINDOWS = [
  [300, "5 minutes"],
  [900, "15 minutes"],
  [3_600, "1 hour"],
  [21_600, "6 hours"],
  [86_400, "24 hours"],
  [604_800, "7 days"],
] as const;
const SCOPES = ["project", "agent", "environment", "revision", "model", "api_key"] as const;
type ScopeKind = (typeof SCOPES)[number];
const SCOPE_LABELS: Record<Exclude<ScopeKind, "project">, string> = {
  agent: "Agent",
  environment: "Environment",
  revision: "Revision",
  model: "Model",
  api_key: "API key",
};

const noSubscription = () => () => {};

export interface MonitorDraft {
  metric?: MetricName;
  agent?: string;
}

/** A new monitor: what to watch, where, over which window, when to fire, and where to say so. */
export function MonitorForm({ draft, onDone }: { draft: MonitorDraft; onDone: (created?: MonitorWire) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const budgets = useQuery(trpc.controls.budgets.list.queryOptions());
  const [metric, setMetric] = useState<MetricName>(draft.metric ?? "error_rate");
  const [scope, setScope] = useState<ScopeKind>(draft.agent ? "agent" : "project");
  const [scopeValue, setScopeValue] = useState(draft.agent ?? "");
  const [budgetId, setBudgetId] = useState("");
  const [evaluator, setEvaluator] = useState("");
  const [windowSeconds, setWindowSeconds] = useState(900);
  const [operator, setOperator] = useState<"above" | "below">(metric === "count" ? "below" : "above");
  const [threshold, setThreshold] = useState("");
  const [minSamples, setMinSamples] = useState("3");
  const [renotify, setRenotify] = useState("");
  const [slack, setSlack] = useState("");
  const [teams, setTeams] = useState("");
  const [githubRepository, setGithubRepository] = useState("");
  const [githubToken, setGithubToken] = useState("");
  const choices = useScopeChoices(scope);
  const [name, setName] = useState("");
  // Enabled once hydrated: a press before that would submit the form as a plain GET.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const percent = isPercent(metric);
  const budget = metric === "budget_use";
  const chosenBudget = budgetId || budgets.data?.[0]?.id || "";
  const value = Number(threshold) / (percent ? 100 : 1);
  const monitor = {
    name: name || `${METRIC_LABELS[metric]} ${operator} ${threshold}${percent || budget ? "%" : ""}`,
    metric: {
      name: metric,
      ...(budget ? { budget_id: chosenBudget } : {}),
      ...(isScoreMetric(metric) ? { evaluator } : {}),
    },
    ...(scope !== "project" && !budget ? { scope: { kind: scope, value: scopeValue } } : {}),
    window_seconds: windowSeconds,
    operator,
    threshold: value,
    min_samples: Number(minSamples) || 1,
    ...(renotify ? { renotify_seconds: Number(renotify) * 60 } : {}),
    channels: [
      ...(slack ? [{ kind: "slack" as const, url: slack }] : []),
      ...(teams ? [{ kind: "teams" as const, url: teams }] : []),
      ...(githubRepository ? [{ kind: "github" as const, repository: githubRepository, token: githubToken }] : []),
    ],
  };
  const save = useMutation(
    trpc.monitors.create.mutationOptions({
      onSuccess: async (created) => {
        await queryClient.invalidateQueries({ queryKey: trpc.monitors.list.queryKey() });
        onDone(created);
      },
    }),
  );
  return (
    <form
      aria-label="New monitor"
      className="flex flex-col gap-4 border-b border-border p-5"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ monitor });
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" value={name} placeholder={monitor.name} onChange={(e) => setName(e.target.value)} />
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Metric
          <SelectInput value={metric} onChange={(e) => setMetric(e.target.value as MetricName)}>
            {METRIC_NAMES.map((m) => (
              <option key={m} value={m}>
                {METRIC_LABELS[m]}
              </option>
            ))}
          </SelectInput>
        </label>
        {isScoreMetric(metric) && (
          <TextField label="Evaluator id" value={evaluator} required onChange={(e) => setEvaluator(e.target.value)} />
        )}
        {budget ? (
          <label className="flex flex-col gap-1.5 text-sm font-medium">
            Budget
            <SelectInput value={chosenBudget} onChange={(e) => setBudgetId(e.target.value)}>
              {(budgets.data ?? []).map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </SelectInput>
          </label>
        ) : (
          <div className="grid grid-cols-2 gap-2">
            <label className="flex flex-col gap-1.5 text-sm font-medium">
              Scope
              <SelectInput
                value={scope}
                onChange={(e) => {
                  setScope(e.target.value as ScopeKind);
                  setScopeValue("");
                }}
              >
                {SCOPES.map((s) => (
                  <option key={s} value={s}>
                    {s === "api_key" ? "API key" : s[0].toUpperCase() + s.slice(1)}
                  </option>
                ))}
              </SelectInput>
            </label>
            {scope !== "project" && (
              <label className="flex flex-col gap-1.5 text-sm font-medium">
                {SCOPE_LABELS[scope]}
                <SelectInput
                  aria-label={SCOPE_LABELS[scope]}
                  value={scopeValue}
                  required
                  onChange={(e) => setScopeValue(e.target.value)}
                >
                  <option value="">Choose…</option>
                  {choices.map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.label}
                    </option>
                  ))}
                </SelectInput>
              </label>
            )}
          </div>
        )}
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Window
          <SelectInput value={windowSeconds} onChange={(e) => setWindowSeconds(Number(e.target.value))}>
            {WINDOWS.map(([s, label]) => (
              <option key={s} value={s}>
                Last {label}
              </option>
            ))}
          </SelectInput>
        </label>
        <div className="grid grid-cols-2 gap-2">
          <label className="flex flex-col gap-1.5 text-sm font-medium">
            Fires when
            <SelectInput value={operator} onChange={(e) => setOperator(e.target.value as "above" | "below")}>
              <option value="above">Above</option>
              <option value="below">Below</option>
            </SelectInput>
          </label>
          <TextField
            label={`Threshold${percent || budget ? " (%)" : ""}`}
            type="number"
            step="any"
            required
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
          />
        </div>
        <TextField
          label="Minimum runs in the window"
          type="number"
          min={1}
          value={minSamples}
          onChange={(e) => setMinSamples(e.target.value)}
          hint="Fewer is no data: the monitor neither fires nor resolves on a handful of runs."
        />
        <TextField
          label="Notify again every (minutes)"
          type="number"
          min={5}
          value={renotify}
          onChange={(e) => setRenotify(e.target.value)}
          hint="Empty: once per alert."
        />
        <TextField
          label="Slack incoming webhook URL"
          value={slack}
          onChange={(e) => setSlack(e.target.value)}
          hint="Optional. Kept sealed; never shown again."
        />
        <TextField
          label="Teams incoming webhook URL"
          value={teams}
          onChange={(e) => setTeams(e.target.value)}
          hint="Optional. Webhook subscriptions to monitors.alert.* receive every alert too."
        />
        <TextField
          label="GitHub repository (owner/name)"
          value={githubRepository}
          onChange={(e) => setGithubRepository(e.target.value)}
          hint="Optional. Each alert sends a repository_dispatch event (monitor-alert) a workflow can run on."
        />
        {githubRepository && (
          <TextField
            label="GitHub token"
            type="password"
            required
            value={githubToken}
            onChange={(e) => setGithubToken(e.target.value)}
            hint="A token that may create repository_dispatch events. Kept sealed; never shown again."
          />
        )}
      </div>
      {save.isError && (
        <Notice tone="danger" title="Could not create the monitor">
          {save.error.message}
        </Notice>
      )}
      <div className="flex justify-end gap-2">
        <Button type="button" onClick={() => onDone()}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={!hydrated || save.isPending}>
          Create monitor
        </Button>
      </div>
    </form>
  );
}

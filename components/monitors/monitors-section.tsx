"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { FindWhatFailsButton } from "@/components/improve";
import { useTRPC } from "@/components/trpc";
import {
  Badge,
  type BadgeTone,
  Button,
  Card,
  EmptyState,
  Notice,
  PlusIcon,
  QueryView,
  Skeleton,
  TimeAgo,
} from "@/components/ui";
import type { MonitorWire } from "@/server/monitors";
import { formatValue, isScoreMetric, METRIC_LABELS, METRIC_NAMES, type MetricName } from "@/shared/monitor-metrics";
import { MonitorChart } from "./monitor-chart";
import { chartQuery, notificationText, scopeText, windowText } from "./monitor-display";
import { MonitorForm } from "./monitor-form";

const STATE_TONES: Record<MonitorWire["state"], BadgeTone> = { ok: "success", alerting: "danger", no_data: "neutral" };
const STATE_LABELS: Record<MonitorWire["state"], string> = { ok: "OK", alerting: "Alerting", no_data: "No data" };

const asMetric = (name: string | null): MetricName | undefined =>
  (METRIC_NAMES as readonly string[]).includes(name ?? "") ? (name as MetricName) : undefined;

/**
 * The project's monitors: each one's state, and for the chosen one a small chart of its metric
 * with the threshold, its alert history and mute. `?new=1&metric=&agent=` opens the form filled
 * in (the Analytics page's "Alert me" links); `?monitor=` opens one (the alerts' links).
 */
export function MonitorsSection() {
  const trpc = useTRPC();
  const params = useSearchParams();
  const router = useRouter();
  const canEdit = useCanEdit();
  const list = useQuery(trpc.monitors.list.queryOptions());
  const [creating, setCreating] = useState(params.get("new") === "1");
  const [chosen, setChosen] = useState<string | null>(params.get("monitor"));
  const draft = { metric: asMetric(params.get("metric")), agent: params.get("agent") ?? undefined };
  const selected = list.data?.find((m) => m.id === chosen) ?? list.data?.[0];
  return (
    <div className="flex flex-col gap-4">
      <Card
        title="Monitors"
        description="A metric of your runs for a scope over a rolling window, against a threshold. Evaluated every minute."
        actions={
          <Button variant="primary" disabled={!canEdit} onClick={() => setCreating(true)}>
            <PlusIcon className="size-3.5" />
            New monitor
          </Button>
        }
      >
        {creating && (
          <MonitorForm
            draft={draft}
            onDone={(created) => {
              setCreating(false);
              if (created) setChosen(created.id);
              router.replace(created ? `/monitors?monitor=${created.id}` : "/monitors");
            }}
          />
        )}
        <QueryView
          query={list}
          pending={
            <div className="p-5">
              <Skeleton className="h-12" />
            </div>
          }
          errorTitle="Could not load monitors"
          errorClassName="p-5"
          isEmpty={(rows) => rows.length === 0}
          empty={
            <EmptyState
              title="No monitors yet"
              description="Create one here, or from a chart on the Analytics page with “Alert me”."
            />
          }
        >
          {(rows) => (
            <ul className="divide-y divide-border" aria-label="Monitors">
              {rows.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    aria-current={selected?.id === m.id ? "true" : undefined}
                    className="flex w-full flex-wrap items-center gap-3 px-5 py-3 text-left hover:bg-surface-muted aria-[current=true]:bg-surface-muted"
                    onClick={() => setChosen(m.id)}
                  >
                    <Badge tone={STATE_TONES[m.state]} dot>
                      {STATE_LABELS[m.state]}
                    </Badge>
                    <span className="font-medium">{m.name}</span>
                    <span className="text-sm text-muted">
                      {METRIC_LABELS[m.metric.name]} {m.operator} {formatValue(m.metric.name, m.threshold)} ·{" "}
                      {scopeText(m)} · {windowText(m.window_seconds)}
                    </span>
                    {m.muted && <Badge tone="warning">Muted</Badge>}
                    {m.last_value !== undefined && (
                      <span className="ml-auto text-sm tabular-nums text-muted">
                        now {formatValue(m.metric.name, m.last_value)}
                      </span>
                    )}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </Card>
      {selected && <MonitorDetail key={selected.id} monitor={selected} canEdit={canEdit} />}
    </div>
  );
}

function MonitorDetail({ monitor: m, canEdit }: { monitor: MonitorWire; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useMemo(() => chartQuery(m, new Date()), [m]);
  const chart = useQuery({ ...trpc.analytics.query.queryOptions(query), enabled: m.metric.name !== "budget_use" });
  const alerts = useQuery({
    ...trpc.monitors.alerts.queryOptions({ id: m.id }),
    // A message still being sent or retried changes on the server: look again until it settles.
    refetchInterval: (q) =>
      q.state.data?.some((a) => a.notifications.some((n) => n.status === "pending")) ? 15_000 : false,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.monitors.list.queryKey() });
  const mute = useMutation(trpc.monitors.mute.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.monitors.remove.mutationOptions({ onSuccess: refresh }));
  const muted = m.muted;
  // Called from a click, never during render.
  const muteFor = (hours: number) =>
    mute.mutate({ id: m.id, until: new Date(new Date().getTime() + hours * 3_600_000).toISOString() });
  return (
    <Card
      title={m.name}
      description={`${METRIC_LABELS[m.metric.name]} of the ${scopeText(m)} over ${windowText(m.window_seconds)}: fires ${m.operator} ${formatValue(m.metric.name, m.threshold)}, resolves at ${formatValue(m.metric.name, m.recovery_threshold)}`}
      actions={
        <div className="flex flex-wrap gap-2">
          {muted ? (
            <Button disabled={!canEdit} onClick={() => mute.mutate({ id: m.id, until: null })}>
              Unmute
            </Button>
          ) : (
            <>
              <Button disabled={!canEdit} onClick={() => muteFor(1)}>
                Mute 1 h
              </Button>
              <Button disabled={!canEdit} onClick={() => muteFor(24)}>
                Mute 24 h
              </Button>
            </>
          )}
          <Button variant="danger" disabled={!canEdit} onClick={() => remove.mutate({ id: m.id })}>
            Delete
          </Button>
        </div>
      }
    >
      <div className="flex flex-col gap-4 p-5">
        <p className="text-sm" data-testid="monitor-state">
          <Badge tone={STATE_TONES[m.state]} dot>
            {STATE_LABELS[m.state]}
          </Badge>{" "}
          since <TimeAgo iso={m.state_since} />
          {m.last_value !== undefined && <> · value {formatValue(m.metric.name, m.last_value)}</>}
          {m.last_samples !== undefined && m.metric.name !== "budget_use" && (
            <>
              {" "}
              · {m.last_samples} {isScoreMetric(m.metric.name) ? "scored results" : "runs"} in the window
            </>
          )}
          {muted && <> · muted until {new Date(m.muted_until!).toLocaleString()}</>}
        </p>
        {(mute.isError || remove.isError) && (
          <Notice tone="danger" title="Could not change the monitor">
            {(mute.error ?? remove.error)?.message}
          </Notice>
        )}
        {m.metric.name !== "budget_use" &&
          (chart.data ? (
            <MonitorChart
              result={chart.data}
              metric={m.metric.name}
              usageKind={m.metric.usage_kind}
              evaluator={m.metric.evaluator}
              threshold={m.threshold}
              recovery={m.recovery_threshold}
            />
          ) : chart.isError ? (
            <p className="text-sm text-danger">{chart.error.message}</p>
          ) : (
            <Skeleton className="h-36" />
          ))}
        <section aria-label="Alert history">
          <h3 className="mb-2 text-sm font-semibold">History</h3>
          {alerts.data?.length ? (
            <ul className="divide-y divide-border text-sm">
              {alerts.data.map((a) => (
                <li key={a.id} className="flex flex-wrap gap-3 py-2">
                  <Badge tone={a.kind === "resolved" ? "success" : "danger"}>{a.kind}</Badge>
                  <span className="tabular-nums">{formatValue(m.metric.name, a.value ?? null)}</span>
                  <span className="text-muted">
                    {a.samples} samples · window {new Date(a.window_start).toLocaleTimeString()} to{" "}
                    {new Date(a.window_end).toLocaleTimeString()}
                  </span>
                  {a.muted && <Badge tone="warning">muted</Badge>}
                  <span className="ml-auto text-muted">
                    <TimeAgo iso={a.evaluated_at} />
                  </span>
                  {a.kind !== "resolved" && (
                    <FindWhatFailsButton
                      size="sm"
                      evidence={{ kind: "monitor_alert", monitor_id: m.id, alert_id: a.id }}
                      describe="the runs in this alert's window"
                    />
                  )}
                  {a.notifications.length > 0 && (
                    <ul aria-label="Channel messages" className="flex w-full flex-col gap-1">
                      {a.notifications.map((n) => {
                        const { tone, label, detail } = notificationText(n);
                        return (
                          <li key={n.id} className="flex flex-wrap items-baseline gap-2 text-xs">
                            <Badge tone={tone}>{label}</Badge>
                            {n.host && <span className="text-muted">{n.host}</span>}
                            {detail && <span className="break-all text-danger">{detail}</span>}
                            {n.status === "pending" && n.attempts > 0 && n.next_attempt_at && (
                              <span className="text-muted">
                                next try {new Date(n.next_attempt_at).toLocaleTimeString()}
                              </span>
                            )}
                          </li>
                        );
                      })}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted">{alerts.isPending ? "Loading…" : "No alerts yet."}</p>
          )}
        </section>
      </div>
    </Card>
  );
}

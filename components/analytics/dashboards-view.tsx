"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { tracesPath } from "@/components/traces";
import { useTRPC } from "@/components/trpc";
import { Button, Card, EmptyState, Input, QueryError, Skeleton } from "@/components/ui";
import { RANGES, type RangeKey } from "./analytics-range";
import { AnalyticsTabs } from "./analytics-tabs";
import { CHART_GROUPS, filteredAgent, savedChartQuery, type SavedChart } from "./dashboard-chart-query";
import { MetricChart, type Series } from "./metric-chart";
import { CHART_METRICS, type ChartMetric } from "./metric-values";

/**
 * Saved dashboards: charts of the analytics API (a metric over a range, grouped and filtered by
 * agent), stored per project. Every point opens the traces behind it.
 */
export function DashboardsView() {
  const trpc = useTRPC();
  const client = useQueryClient();
  const dashboards = useQuery(trpc.analytics.dashboards.queryOptions());
  const remove = useMutation(
    trpc.analytics.deleteDashboard.mutationOptions({
      onSuccess: () => client.invalidateQueries({ queryKey: trpc.analytics.dashboards.queryKey() }),
    }),
  );
  const [creating, setCreating] = useState(false);
  return (
    <section aria-label="Dashboards" className="flex flex-col gap-4">
      <AnalyticsTabs />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-semibold tracking-tight">Dashboards</h2>
          <p className="text-sm text-muted">
            Your own charts, saved for the project: a metric, a range, a group, a filter.
          </p>
        </div>
        {!creating && <Button onClick={() => setCreating(true)}>New dashboard</Button>}
      </div>
      {creating && <DashboardForm onDone={() => setCreating(false)} />}
      {dashboards.isPending ? (
        <Skeleton className="h-40" />
      ) : dashboards.isError ? (
        <QueryError title="Could not load dashboards" error={dashboards.error} />
      ) : dashboards.data.length === 0 ? (
        !creating && (
          <EmptyState
            title="No dashboards yet"
            description="Save the charts you look at every day, grouped and filtered as you need."
          />
        )
      ) : (
        dashboards.data.map((d) => (
          <Card
            key={d.id}
            title={d.name}
            labelledBy={`dashboard-${d.id}`}
            actions={
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Delete dashboard ${d.name}`}
                onClick={() => remove.mutate({ id: d.id })}
              >
                Delete
              </Button>
            }
          >
            <div className="grid gap-4 lg:grid-cols-2">
              {d.charts.map((chart, i) => (
                <SavedChartCard key={i} chart={chart as SavedChart} />
              ))}
            </div>
          </Card>
        ))
      )}
    </section>
  );
}

/** One saved chart, drawn from the analytics query; a point opens its bucket's traces. */
function SavedChartCard({ chart }: { chart: SavedChart }) {
  const trpc = useTRPC();
  const router = useRouter();
  const query = useMemo(() => savedChartQuery(chart, new Date()), [chart]);
  const result = useQuery({ ...trpc.analytics.query.queryOptions(query), staleTime: 0 });
  const agents = useQuery(trpc.agents.list.queryOptions({ limit: 200 }));
  const agentOf = (id: string) => agents.data?.items.find((a) => a.agent.id === id)?.agent;
  const series: Series[] = (result.data?.groups ?? []).map((g) => ({
    key: g.key ?? "",
    label: !g.key ? "(none)" : chart.group_by === "agent" ? (agentOf(g.key)?.name ?? g.key) : g.key,
  }));
  const agent = filteredAgent(chart.filtering);
  // The bucket's traces; a clicked series narrows them to its agent, model or revision.
  const open = (bucket: number, seriesKey?: string) => {
    const buckets = result.data?.buckets ?? [];
    const picked = seriesKey || undefined;
    const pickedAgent = chart.group_by === "agent" ? picked : undefined;
    router.push(
      tracesPath({
        from: buckets[bucket]?.timestamp,
        to: buckets[bucket + 1]?.timestamp ?? result.data?.windowing.newest,
        agent: (pickedAgent ?? agent) ? agentOf((pickedAgent ?? agent)!)?.slug : undefined,
        model: chart.group_by === "model" ? picked : undefined,
        revision: chart.group_by === "revision" ? picked : undefined,
        status: chart.metric === "error_rate" ? "error" : undefined,
      }),
    );
  };
  return (
    <div data-testid="saved-chart">
      <h3 className="mb-1 text-sm font-medium">{chart.title}</h3>
      <p className="mb-2 text-xs text-muted">
        {CHART_METRICS[chart.metric].label} · last {RANGES[chart.range].label}
        {chart.group_by
          ? ` · by ${typeof chart.group_by === "string" ? chart.group_by : chart.group_by.attribute}`
          : ""}
        {agent ? ` · agent ${agentOf(agent)?.name ?? agent}` : ""}
      </p>
      {result.isPending ? (
        <Skeleton className="h-40" />
      ) : result.isError ? (
        <QueryError title="Could not draw this chart" error={result.error} />
      ) : (
        <>
          <p className="text-xs text-muted" data-testid="saved-chart-runs">
            {result.data.metrics.count} runs
          </p>
          <MetricChart result={result.data} metric={chart.metric} series={series} onPick={open} />
        </>
      )}
    </div>
  );
}

/** A new dashboard: its name and charts, added one at a time, then saved. */
function DashboardForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const client = useQueryClient();
  const agents = useQuery(trpc.agents.list.queryOptions({ limit: 200 }));
  const save = useMutation(
    trpc.analytics.saveDashboard.mutationOptions({
      onSuccess: async () => {
        await client.invalidateQueries({ queryKey: trpc.analytics.dashboards.queryKey() });
        onDone();
      },
    }),
  );
  const [name, setName] = useState("");
  const [charts, setCharts] = useState<SavedChart[]>([]);
  const [title, setTitle] = useState("");
  const [metric, setMetric] = useState<ChartMetric>("runs");
  const [range, setRange] = useState<RangeKey>("7d");
  const [group, setGroup] = useState("");
  const [agent, setAgent] = useState("");
  const add = () => {
    setCharts([
      ...charts,
      {
        title: title.trim() || CHART_METRICS[metric].label,
        metric,
        range,
        ...(group ? { group_by: group as (typeof CHART_GROUPS)[number] } : {}),
        ...(agent ? { filtering: { conditions: [{ field: "agent", value: agent }] } } : {}),
      },
    ]);
    setTitle("");
  };
  return (
    <Card title="New dashboard">
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ name, charts });
        }}
      >
        <label className="flex flex-col gap-1 text-sm">
          Name
          <Input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <fieldset className="flex flex-col gap-2 rounded-md border border-line p-3">
          <legend className="px-1 text-xs text-muted">Add a chart</legend>
          <div className="flex flex-wrap gap-2">
            <Input
              aria-label="Chart title"
              placeholder="Title"
              value={title}
              onChange={(e) => setTitle(e.target.value)}
            />
            <SelectInput aria-label="Metric" value={metric} onChange={(e) => setMetric(e.target.value as ChartMetric)}>
              {Object.entries(CHART_METRICS).map(([k, m]) => (
                <option key={k} value={k}>
                  {m.label}
                </option>
              ))}
            </SelectInput>
            <SelectInput aria-label="Chart range" value={range} onChange={(e) => setRange(e.target.value as RangeKey)}>
              {Object.entries(RANGES).map(([k, r]) => (
                <option key={k} value={k}>
                  Last {r.label}
                </option>
              ))}
            </SelectInput>
            <SelectInput aria-label="Chart group" value={group} onChange={(e) => setGroup(e.target.value)}>
              <option value="">No grouping</option>
              {CHART_GROUPS.map((g) => (
                <option key={g} value={g}>
                  By {g}
                </option>
              ))}
            </SelectInput>
            <SelectInput aria-label="Chart agent" value={agent} onChange={(e) => setAgent(e.target.value)}>
              <option value="">Every agent</option>
              {(agents.data?.items ?? []).map((a) => (
                <option key={a.agent.id} value={a.agent.id}>
                  {a.agent.name}
                </option>
              ))}
            </SelectInput>
            <Button type="button" onClick={add}>
              Add chart
            </Button>
          </div>
          {charts.length > 0 && (
            <ul className="text-sm" aria-label="Charts of the new dashboard">
              {charts.map((c, i) => (
                <li key={i} className="flex items-center justify-between gap-2">
                  <span>
                    {c.title} · {CHART_METRICS[c.metric].label} · last {RANGES[c.range].label}
                  </span>
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    onClick={() => setCharts(charts.filter((_, j) => j !== i))}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        {save.isError && <p className="text-sm text-danger">{save.error.message}</p>}
        <div className="flex gap-2">
          <Button type="submit" disabled={!name.trim() || charts.length === 0 || save.isPending}>
            Save dashboard
          </Button>
          <Button type="button" variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}

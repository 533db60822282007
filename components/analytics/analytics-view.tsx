"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import Link from "next/link";
import { monitorDraftPath } from "@/components/monitors/monitor-draft";
import { tracesPath } from "@/components/traces";
import { FindWhatFailsButton } from "@/components/improve";
import { useTRPC } from "@/components/trpc";
import { Button, Card, EmptyState, Skeleton } from "@/components/ui";
import type { AnalyticsResult } from "@/server/analytics";
import { rangeQuery, RANGES, GROUPS, windowQuery, type GroupKey, type RangeKey } from "./analytics-range";
import { downloadText, toCsv } from "./csv";
import { deployMarkers } from "./deploy-markers";
import { MetricChart, type Series } from "./metric-chart";
import { CHART_METRICS, tokens, usd, type ChartMetric } from "./metric-values";

/**
 * How the project's agents are doing: runs, cost, error rate, latency and tokens over a range,
 * grouped by agent, model or revision, with the table behind the charts (CSV). `agentId` narrows
 * it to one agent (its page's small chart). A click on a chart opens the traces behind it.
 */
export function AnalyticsView({
  agentId,
  compact = false,
  window,
}: {
  agentId?: string;
  compact?: boolean;
  /** A given window instead of a range (an alert's link to the moment it fired). */
  window?: { oldest: string; newest: string };
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [range, setRange] = useState<RangeKey>("7d");
  const [group, setGroup] = useState<GroupKey>(agentId ? "model" : "agent");
  const [metric, setMetric] = useState<ChartMetric>("runs");
  // The window is fixed when the range or group changes, not on every render.
  const [fixed, setFixed] = useState(window);
  const query = useMemo(
    () => (fixed && windowQuery(fixed, group, agentId)) || rangeQuery(range, group, new Date(), agentId),
    [fixed, range, group, agentId],
  );
  const result = useQuery({ ...trpc.analytics.query.queryOptions(query), staleTime: 0 });
  const agents = useQuery(trpc.agents.list.queryOptions({ limit: 200 }));
  const agentOf = (id: string) => agents.data?.items.find((a) => a.agent.id === id)?.agent;
  // Deploys of every environment (of this agent, on its page) become markers on the time axis.
  const environments = useQuery(trpc.environments.list.queryOptions());
  const deploys = useQueries({
    queries: (environments.data ?? []).map((env) =>
      trpc.environments.deploys.queryOptions({ environment: env.slug, artifactId: agentId, limit: 100 }),
    ),
  });

  // Revisions are named as people know them: the agent and its version ("Support bot v3").
  const revisionIds = group === "revision" ? (result.data?.groups ?? []).flatMap((g) => (g.key ? [g.key] : [])) : [];
  const revisions = useQueries({
    queries: revisionIds.map((id) => ({ ...trpc.agents.revision.queryOptions({ id }), retry: false })),
  });
  const revisionName = (id: string) => {
    const revision = revisions[revisionIds.indexOf(id)]?.data as
      { version: string; workflow_id?: string; artifact_id?: string } | undefined;
    if (!revision) return id.slice(0, 8);
    const agent = agentOf(revision.workflow_id ?? revision.artifact_id ?? "");
    return `${agent ? `${agent.name} ` : ""}v${revision.version}`;
  };
  const series: Series[] = (result.data?.groups ?? []).map((g) => ({
    key: g.key ?? "",
    label: !g.key
      ? "(none)"
      : group === "agent"
        ? (agentOf(g.key)?.name ?? g.key)
        : group === "revision"
          ? revisionName(g.key)
          : g.key,
  }));
  // A point opens the traces of its bucket, [its start, the next bucket's start), and of its
  // series' group when one was clicked: that agent, model or revision.
  const open = (m: ChartMetric) => (bucket: number, seriesKey?: string) => {
    const buckets = result.data?.buckets ?? [];
    const from = buckets[bucket]?.timestamp;
    const picked = seriesKey || undefined;
    const agentSlug = agentId
      ? agentOf(agentId)?.slug
      : group === "agent" && picked
        ? (agentOf(picked)?.slug ?? undefined)
        : undefined;
    router.push(
      tracesPath({
        ...(from ? { from, to: buckets[bucket + 1]?.timestamp ?? result.data?.windowing.newest } : {}),
        agent: agentSlug,
        model: group === "model" ? picked : undefined,
        revision: group === "revision" ? picked : undefined,
        status: m === "error_rate" ? "error" : undefined,
      }),
    );
  };

  const controls = (
    <div className="flex flex-wrap items-center gap-2">
      <SelectInput
        aria-label="Range"
        value={fixed ? "window" : range}
        onChange={(e) => {
          setFixed(undefined);
          setRange(e.target.value as RangeKey);
        }}
      >
        {fixed && (
          <option value="window">
            {new Date(query.windowing!.oldest!).toLocaleString()} to{" "}
            {new Date(query.windowing!.newest!).toLocaleString()}
          </option>
        )}
        {Object.entries(RANGES).map(([k, r]) => (
          <option key={k} value={k}>
            Last {r.label}
          </option>
        ))}
      </SelectInput>
      <SelectInput aria-label="Group by" value={group} onChange={(e) => setGroup(e.target.value as GroupKey)}>
        {Object.entries(GROUPS).map(([k, label]) => (
          <option key={k} value={k}>
            By {label.toLowerCase()}
          </option>
        ))}
      </SelectInput>
      {compact && (
        <SelectInput aria-label="Metric" value={metric} onChange={(e) => setMetric(e.target.value as ChartMetric)}>
          {Object.entries(CHART_METRICS).map(([k, m]) => (
            <option key={k} value={k}>
              {m.label}
            </option>
          ))}
        </SelectInput>
      )}
    </div>
  );

  if (result.isPending)
    return (
      <Card title="Analytics" actions={controls}>
        <Skeleton className="h-48" />
      </Card>
    );
  if (result.isError)
    return (
      <Card title="Analytics" actions={controls}>
        <p className="text-sm text-danger">{result.error.message}</p>
      </Card>
    );
  const data: AnalyticsResult = result.data;
  const markers = deployMarkers(
    data,
    deploys.flatMap((d) =>
      d.data ? d.data.items.map((i) => ({ at: i.revision.created_at, env: d.data.environment })) : [],
    ),
  );

  if (compact) {
    return (
      <Card title="Analytics" description="Runs of this agent" actions={controls}>
        <Totals result={data} />
        <AlertMe chart={metric} agentId={agentId} />
        <MetricChart
          result={data}
          metric={metric}
          series={series}
          height={140}
          markers={markers}
          onPick={open(metric)}
        />
      </Card>
    );
  }
  return (
    <section aria-label="Analytics" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-semibold tracking-tight">Analytics</h2>
          <p className="text-sm text-muted">How your agents are doing: runs, cost, errors, latency and tokens.</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {controls}
          <FindWhatFailsButton
            traces={{
              from: data.windowing.oldest,
              to: data.windowing.newest,
              agent: agentId ? agentOf(agentId)?.slug : undefined,
              status: "error",
            }}
            describe="the failed runs of this range"
          />
        </div>
      </div>
      <Totals result={data} />
      {data.metrics.count === 0 ? (
        <EmptyState title="No runs in this range" description="Runs of your agents and traces you send appear here." />
      ) : (
        <>
          <div className="grid gap-4 lg:grid-cols-2">
            {(Object.keys(CHART_METRICS) as ChartMetric[]).map((m) => (
              <Card key={m} title={CHART_METRICS[m].label} actions={<AlertMe chart={m} agentId={agentId} />}>
                <MetricChart result={data} metric={m} series={series} markers={markers} onPick={open(m)} />
              </Card>
            ))}
          </div>
          <GroupTable result={data} series={series} group={GROUPS[group]} />
        </>
      )}
    </section>
  );
}

/** "Alert me when this line crosses…": the Monitors page with the chart's metric (and agent) filled in. */
function AlertMe({ chart, agentId }: { chart: ChartMetric; agentId?: string }) {
  return (
    <Link
      href={monitorDraftPath(chart, agentId)}
      className="text-xs font-medium text-accent hover:underline"
      aria-label={`Alert me when ${CHART_METRICS[chart].label.toLowerCase()} crosses a threshold`}
    >
      Alert me…
    </Link>
  );
}

function Totals({ result }: { result: AnalyticsResult }) {
  const m = result.metrics;
  const items: [string, string, string][] = [
    // Without runs there is no rate or latency to show: "—", not a measured 0.
    ["runs", "Runs", String(m.count)],
    ["errors", "Error rate", m.count ? `${(m.error_rate * 100).toFixed(1)}%` : "—"],
    ["cost", "Cost", `$${usd(m.costs).toFixed(4)}`],
    ["tokens", "Tokens", String(tokens(m.tokens))],
    ["latency", "Latency p50", m.count ? `${Math.round(m.latency_ms.p50)} ms` : "—"],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
      {items.map(([id, label, value]) => (
        <div key={id} className="rounded-lg border border-line bg-surface px-3 py-2">
          <dt className="text-xs text-muted">{label}</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid={`analytics-total-${id}`}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function GroupTable({ result, series, group }: { result: AnalyticsResult; series: Series[]; group: string }) {
  const header = [group, "Runs", "Errors", "Error rate", "Cost (USD)", "Tokens", "p50 ms", "p90 ms", "p99 ms"];
  const rows = (result.groups ?? []).map((g, i) => [
    series[i]?.label ?? g.key ?? "(none)",
    g.metrics.count,
    g.metrics.errors,
    g.metrics.error_rate,
    usd(g.metrics.costs),
    tokens(g.metrics.tokens),
    g.metrics.latency_ms.p50,
    g.metrics.latency_ms.p90,
    g.metrics.latency_ms.p99,
  ]);
  return (
    <Card
      title={`By ${group.toLowerCase()}`}
      actions={
        <Button
          size="sm"
          onClick={() => downloadText(`analytics-by-${group.toLowerCase()}.csv`, toCsv([header, ...rows]))}
        >
          Export CSV
        </Button>
      }
    >
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid="analytics-table">
          <thead>
            <tr className="text-left text-xs text-muted">
              {header.map((h) => (
                <th key={h} className="px-2 py-1 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i} className="border-t border-line">
                {row.map((v, j) => (
                  <td key={j} className="px-2 py-1 tabular-nums">
                    {j === 3 ? `${(Number(v) * 100).toFixed(1)}%` : v}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

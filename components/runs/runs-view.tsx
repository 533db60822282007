"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { chatPath } from "@/components/chat/chat-paths";
import { formatCost } from "@/components/chat/turn-usage";
import { SelectInput } from "@/components/editor/select-input";
import { SectionHeader, TabContainer } from "@/components/history";
import { formatDuration } from "@/components/ui/format-duration";
import { tracePath } from "@/components/traces";
import { useTRPC } from "@/components/trpc";
import { Badge, Button, cn, EmptyState, QueryView, Skeleton, TimeAgo } from "@/components/ui";
import type { RunWire } from "@/server/agent-runs";
import { isDraftRun, RUN_ORIGIN_CHOICES, RUN_ORIGIN_LABEL, servedBy } from "./run-origin";
import { runsPath } from "./run-paths";
import { RUN_STATUS_CHOICES, RUN_STATUS_LOOK, type RunStatus } from "./run-status";
import { useNow } from "./use-now";
import { NO_PRICE } from "@/shared/no-price";

const PAGE_SIZE = 25;
/** How often the list asks again while a run on it is still running. */
const LIVE_REFRESH_MS = 2000;

/**
 * An agent's runs (every variant's, its draft chat's and the ones other agents ran through a
 * reference tool), newest first, filtered by status, paged; running ones refresh live.
 */
export function RunsView({
  agentId,
  variantId,
  status,
  door,
}: {
  agentId: string;
  variantId: string;
  status?: RunStatus;
  door?: RunWire["origin"];
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const list = useInfiniteQuery({
    ...trpc.runs.list.infiniteQueryOptions(
      { agentId, status: status ? [status] : undefined, origin: door ? [door] : undefined, limit: PAGE_SIZE },
      { getNextPageParam: (page) => page.next ?? undefined },
    ),
    // Runs appear and end on their own: each visit reads them anew, not the playground's 30 s cache.
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.runs.some((run) => run.status === "running"))
        ? LIVE_REFRESH_MS
        : false,
  });
  const runs = list.data?.pages.flatMap((page) => page.runs) ?? [];
  const now = useNow(runs.some((run) => run.status === "running"));

  return (
    <TabContainer>
      <SectionHeader
        title="Runs"
        description="Every turn of this agent, from the playground (the draft's chat included), the API, the OpenAI-compatible API, MCP and A2A clients and other agents' tool calls, newest first."
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor="run-door" className="text-xs font-medium text-muted">
              Door
            </label>
            <SelectInput
              id="run-door"
              value={door ?? ""}
              onChange={(e) =>
                router.push(
                  runsPath(agentId, variantId, {
                    status,
                    door: (e.target.value || undefined) as RunWire["origin"] | undefined,
                  }),
                )
              }
            >
              <option value="">Any door</option>
              {RUN_ORIGIN_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {RUN_ORIGIN_LABEL[choice]}
                </option>
              ))}
            </SelectInput>
            <label htmlFor="run-status" className="text-xs font-medium text-muted">
              Status
            </label>
            <SelectInput
              id="run-status"
              value={status ?? ""}
              onChange={(e) =>
                router.push(
                  runsPath(agentId, variantId, {
                    status: (e.target.value || undefined) as RunStatus | undefined,
                    door,
                  }),
                )
              }
            >
              <option value="">Any status</option>
              {RUN_STATUS_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {RUN_STATUS_LOOK[choice].label}
                </option>
              ))}
            </SelectInput>
          </div>
        }
      />
      <QueryView
        query={list}
        pending={
          <div className="space-y-2" aria-label="Loading runs" role="status">
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </div>
        }
        errorTitle="Could not load the runs"
        isEmpty={() => runs.length === 0}
        empty={
          <EmptyState
            className="rounded-xl border border-dashed border-line"
            title={
              status || door
                ? `No ${status ? RUN_STATUS_LOOK[status].label.toLowerCase() + " " : ""}runs${door ? ` through ${RUN_ORIGIN_LABEL[door]}` : ""}`
                : "No runs yet"
            }
            description={
              status || door
                ? "No run of this agent matches; choose another status or door, or any."
                : "Chat with the agent, or invoke it over the API; each turn appears here as a run."
            }
            action={
              <Link href={chatPath(agentId, variantId)} className="text-sm font-medium text-accent hover:underline">
                Open the chat
              </Link>
            }
          />
        }
      >
        {() => (
          <>
            <ul
              className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
              aria-label="Runs"
            >
              {runs.map((run) => (
                <RunTableRow key={run.id} run={run} agentId={agentId} variantId={variantId} now={now} />
              ))}
            </ul>
            {list.hasNextPage && (
              <Button className="self-center" onClick={() => list.fetchNextPage()} loading={list.isFetchingNextPage}>
                Load older runs
              </Button>
            )}
          </>
        )}
      </QueryView>
    </TabContainer>
  );
}

function RunTableRow({
  run,
  agentId,
  variantId,
  now,
}: {
  run: RunWire;
  agentId: string;
  variantId: string;
  now: number;
}) {
  const look = RUN_STATUS_LOOK[run.status];
  const running = run.status === "running";
  const durationMs = run.duration_ms ?? Math.max(0, now - new Date(run.created_at).getTime());
  // The session opens in the chat of the variant that ran it (a run of another variant names it).
  const ranVariant = (run.agent.references?.workflow_variant as { id?: string } | undefined)?.id ?? variantId;
  const served = servedBy(run);
  return (
    <li
      data-testid="run-row"
      data-status={run.status}
      data-origin={run.origin}
      data-continues={run.continues_run_id ?? undefined}
      className="flex flex-col gap-1.5 px-4 py-3 text-sm"
    >
      <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
        <Badge tone={look.tone} dot={!running} className={cn(running && "pl-1.5")}>
          {running && (
            <span aria-hidden="true" className="relative flex size-2">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-current opacity-60" />
              <span className="relative inline-flex size-2 rounded-full bg-current" />
            </span>
          )}
          {look.label}
        </Badge>
        <span className="text-muted">
          Started <TimeAgo iso={run.created_at} />
        </span>
        <Badge>{RUN_ORIGIN_LABEL[run.origin]}</Badge>
        {isDraftRun(run) && <Badge>Draft</Badge>}
        {served.version && (
          <span title="The revision that ran" data-testid="run-revision">
            <Badge>{served.version}</Badge>
          </span>
        )}
        {served.environment && (
          <span title="The environment it was served through" data-testid="run-environment">
            <Badge>{served.environment}</Badge>
          </span>
        )}
        {run.background && <Badge>Background</Badge>}
        {run.continues_run_id && (
          // Its input answered the approvals the paused run asked for: one lineage, one trace.
          <span title={`Continues the paused run ${run.continues_run_id}`}>
            <Badge>Continues a paused run</Badge>
          </span>
        )}
        <Link
          href={tracePath(run.trace_id)}
          className="ml-auto text-sm font-medium text-accent hover:underline"
          aria-label={`Trace of the run started ${new Date(run.created_at).toUTCString()}`}
        >
          Trace
        </Link>
      </div>
      <dl className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-muted">
        <Fact label="Duration">
          <span className={cn("tabular-nums", running && "text-foreground")}>{formatDuration(durationMs)}</span>
        </Fact>
        <Fact label="Cost">
          {run.usage?.cost !== undefined ? formatCost(run.usage.cost) : run.usage ? NO_PRICE : "—"}
        </Fact>
        <Fact label="Tokens">
          {run.usage
            ? `${run.usage.input.toLocaleString("en-US")} in · ${run.usage.output.toLocaleString("en-US")} out`
            : "—"}
        </Fact>
        <Fact label="Stop reason">
          <span className="font-mono">{run.stop_reason ?? (running ? "…" : "—")}</span>
        </Fact>
        <Fact label="Session">
          {run.parent_run_id ? (
            // A nested run's session is its own, never a chat: it is seen in its caller's trace.
            <span className="inline-block max-w-48 truncate align-bottom font-mono">{run.session_id}</span>
          ) : (
            <Link
              href={chatPath(agentId, ranVariant, { session: run.session_id })}
              className="inline-block max-w-48 truncate align-bottom font-mono text-accent hover:underline"
              title={`Open session ${run.session_id} in the chat`}
            >
              {run.session_id}
            </Link>
          )}
        </Fact>
      </dl>
      {run.error && <p className="line-clamp-2 text-xs text-danger">{run.error}</p>}
    </li>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 items-baseline gap-1">
      <dt>{label}</dt>
      <dd className="min-w-0 text-foreground">{children}</dd>
    </div>
  );
}

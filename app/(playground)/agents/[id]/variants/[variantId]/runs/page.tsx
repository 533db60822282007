import type { Metadata } from "next";
import { AnalyticsView } from "@/components/analytics";
import { TabContainer } from "@/components/history";
import { RunsView, runOriginOf, runStatusOf } from "@/components/runs";
import { firstParam, type SearchParams } from "@/components/search-params";

export const metadata: Metadata = { title: "Runs" };

/** The agent's runs over time (a small chart), then the list; `?status=` and `?door=` filter the list. */
export default async function RunsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; variantId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ id, variantId }, query] = await Promise.all([params, searchParams]);
  return (
    <div className="flex flex-col">
      {/* The list's own container keeps the tab's gutter; the chart above it gets the same one. */}
      <TabContainer className="pb-0">
        <AnalyticsView agentId={id} compact />
      </TabContainer>
      <RunsView
        agentId={id}
        variantId={variantId}
        status={runStatusOf(firstParam(query.status))}
        door={runOriginOf(firstParam(query.door))}
      />
    </div>
  );
}

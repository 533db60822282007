import type { Metadata } from "next";
import { AnalyticsView } from "@/components/analytics";
import { RunsView, runStatusOf } from "@/components/runs";
import { firstParam, type SearchParams } from "@/components/search-params";

export const metadata: Metadata = { title: "Runs" };

/** The agent's runs over time (a small chart), then the list; `?status=` filters the list. */
export default async function RunsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; variantId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ id, variantId }, query] = await Promise.all([params, searchParams]);
  return (
    <div className="flex flex-col gap-4">
      <AnalyticsView agentId={id} compact />
      <RunsView agentId={id} variantId={variantId} status={runStatusOf(firstParam(query.status))} />
    </div>
  );
}

import type { Metadata } from "next";
import { RunsView, runStatusOf } from "@/components/runs";
import { firstParam, type SearchParams } from "@/components/search-params";

export const metadata: Metadata = { title: "Runs" };

/** The agent's runs; `?status=` filters them. */
export default async function RunsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; variantId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ id, variantId }, query] = await Promise.all([params, searchParams]);
  return <RunsView agentId={id} variantId={variantId} status={runStatusOf(firstParam(query.status))} />;
}

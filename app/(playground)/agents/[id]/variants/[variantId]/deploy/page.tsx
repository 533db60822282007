import type { Metadata } from "next";
import { firstParam, type SearchParams } from "@/components/search-params";
import { DeployView } from "@/components/deploy";

export const metadata: Metadata = { title: "Deploy" };

export default async function DeployPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; variantId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ id, variantId }, query] = await Promise.all([params, searchParams]);
  return <DeployView agentId={id} variantId={variantId} revisionId={firstParam(query.revision)} />;
}

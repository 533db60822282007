import type { Metadata } from "next";
import { firstParam, type SearchParams } from "@/components/search-params";
import { CompareView } from "@/components/diff";

export const metadata: Metadata = { title: "Compare revisions" };

export default async function DiffPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; variantId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ id, variantId }, query] = await Promise.all([params, searchParams]);
  return <CompareView agentId={id} variantId={variantId} from={firstParam(query.from)} to={firstParam(query.to)} />;
}

import type { Metadata } from "next";
import { firstParam, type SearchParams } from "@/components/search-params";
import { TestsetDiff } from "@/components/testsets";

export const metadata: Metadata = { title: "Compare testset revisions" };

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  return <TestsetDiff testsetId={id} from={firstParam(query.from)} to={firstParam(query.to)} />;
}

import type { Metadata } from "next";
import { firstParam, type SearchParams } from "@/components/search-params";
import { PageContainer, PageHeader } from "@/components/shell";
import { TraceView } from "@/components/traces";

export const metadata: Metadata = { title: "Trace" };

export default async function TracePage({
  params,
  searchParams,
}: {
  params: Promise<{ traceId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ traceId }, query] = await Promise.all([params, searchParams]);
  return (
    <PageContainer>
      <PageHeader title="Trace" description="The span tree on one time axis; choose a span to read its attributes." />
      <TraceView traceId={traceId} spanId={firstParam(query.span)} />
    </PageContainer>
  );
}

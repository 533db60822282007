import type { Metadata } from "next";
import { PageContainer, PageHeader } from "@/components/shell";
import { TraceView } from "@/components/traces";

export const metadata: Metadata = { title: "Trace" };

export default async function TracePage({
  params,
  searchParams,
}: {
  params: Promise<{ traceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ traceId }, query] = await Promise.all([params, searchParams]);
  const span = Array.isArray(query.span) ? query.span[0] : query.span;
  return (
    <PageContainer>
      <PageHeader title="Trace" description="The span tree on one time axis; choose a span to read its attributes." />
      <TraceView traceId={traceId} spanId={span || undefined} />
    </PageContainer>
  );
}

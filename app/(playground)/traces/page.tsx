import type { SearchParams } from "@/components/search-params";
import type { Metadata } from "next";
import { PageContainer, PageHeader } from "@/components/shell";
import { filtersOf, TracesList } from "@/components/traces";

export const metadata: Metadata = { title: "Traces" };

export default async function TracesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const filters = filtersOf(await searchParams);
  return (
    <PageContainer>
      <PageHeader
        title="Traces"
        description="What agent runs and instrumented services did: each span, its timing, tokens and cost."
      />
      {/* Keyed by the filters, so the text box starts from the URL after back and forward. */}
      <TracesList key={JSON.stringify(filters)} filters={filters} />
    </PageContainer>
  );
}

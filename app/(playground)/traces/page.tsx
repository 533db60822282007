import type { SearchParams } from "@/components/search-params";
import type { Metadata } from "next";
import { FindWhatFailsButton } from "@/components/improve";
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
        actions={
          // Every trace the filters match is taken as a failure to group: filter first, then ask.
          <FindWhatFailsButton
            traces={filters}
            describe={
              filters.status === "error" ? "the failed traces these filters match" : "the traces these filters match"
            }
          />
        }
      />
      {/* Keyed by the filters, so the text box starts from the URL after back and forward. */}
      <TracesList key={JSON.stringify(filters)} filters={filters} />
    </PageContainer>
  );
}

import type { Metadata } from "next";
import { AnalyticsTabs, AnalyticsView } from "@/components/analytics";
import { PageContainer } from "@/components/shell";

export const metadata: Metadata = { title: "Analytics" };

/** The Analytics page on its own (the Overview opens on the same view). */
export default async function AnalyticsPage({
  searchParams,
}: {
  searchParams: Promise<{ oldest?: string; newest?: string }>;
}) {
  // An alert links here with the window it read.
  const { oldest, newest } = await searchParams;
  return (
    <PageContainer>
      {/* The view's own title is an h2: on the Overview it sits under the page's h1. */}
      <h1 className="sr-only">Analytics</h1>
      <AnalyticsTabs />
      <AnalyticsView window={oldest && newest ? { oldest, newest } : undefined} />
    </PageContainer>
  );
}

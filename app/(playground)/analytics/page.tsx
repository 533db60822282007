import type { Metadata } from "next";
import { AnalyticsView } from "@/components/analytics";
import { PageContainer } from "@/components/shell";

export const metadata: Metadata = { title: "Analytics" };

/** The Analytics page on its own (the Overview opens on the same view). */
export default function AnalyticsPage() {
  return (
    <PageContainer>
      {/* The view's own title is an h2: on the Overview it sits under the page's h1. */}
      <h1 className="sr-only">Analytics</h1>
      <AnalyticsView />
    </PageContainer>
  );
}

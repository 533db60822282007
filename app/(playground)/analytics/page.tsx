import type { Metadata } from "next";
import { AnalyticsView } from "@/components/analytics";
import { PageContainer } from "@/components/shell";

export const metadata: Metadata = { title: "Analytics" };

/** The Analytics page on its own (the Overview opens on the same view). */
export default function AnalyticsPage() {
  return (
    <PageContainer>
      <AnalyticsView />
    </PageContainer>
  );
}

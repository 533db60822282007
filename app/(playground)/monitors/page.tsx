import type { Metadata } from "next";
import { Suspense } from "react";
import { MonitorsSection } from "@/components/monitors";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Monitors" };

export default function MonitorsPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Monitors"
        description="Know when an agent gets worse, slower or more expensive: thresholds on your analytics, with alerts."
      />
      {/* The section reads the URL (a draft from an Analytics chart, or the monitor an alert links to). */}
      <Suspense>
        <MonitorsSection />
      </Suspense>
    </PageContainer>
  );
}

import type { Metadata } from "next";
import { DashboardsView } from "@/components/analytics";
import { PageContainer } from "@/components/shell";

export const metadata: Metadata = { title: "Dashboards" };

/** The project's saved analytics dashboards. */
export default function DashboardsPage() {
  return (
    <PageContainer>
      <h1 className="sr-only">Dashboards</h1>
      <DashboardsView />
    </PageContainer>
  );
}

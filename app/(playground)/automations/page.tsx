import type { Metadata } from "next";
import { AutomationsSection } from "@/components/automations";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Automations" };

export default function AutomationsPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Automations"
        description="Schedules, event subscriptions and inbound triggers that run agents."
      />
      <AutomationsSection />
    </PageContainer>
  );
}

import type { Metadata } from "next";
import { ApiKeysSection, DeployGateSection, MembersSection } from "@/components/settings";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Settings"
        description="Who is in this project, access to its API, and what a deploy to production needs."
      />
      <MembersSection />
      <ApiKeysSection />
      <DeployGateSection />
    </PageContainer>
  );
}

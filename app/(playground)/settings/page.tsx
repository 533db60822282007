import type { Metadata } from "next";
import { ApiKeysSection, MembersSection } from "@/components/settings";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <PageContainer>
      <PageHeader title="Settings" description="Who is in this project, and access to its API." />
      <MembersSection />
      <ApiKeysSection />
    </PageContainer>
  );
}

import type { Metadata } from "next";
import { ConnectionsSection, SecretsSection } from "@/components/connections";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Connections" };

export default function ConnectionsPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Connections"
        description="Provider keys and custom model providers your agents run with, and the secrets their tools send."
      />
      <div className="flex flex-col gap-6">
        <ConnectionsSection />
        <SecretsSection />
      </div>
    </PageContainer>
  );
}

import type { Metadata } from "next";
import { EnvironmentsOverview } from "@/components/environments";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Environments" };

export default function EnvironmentsPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Environments"
        description="What runs where. An environment points each agent at one revision; deploying moves the pointer and records who, when and why."
      />
      <EnvironmentsOverview />
    </PageContainer>
  );
}

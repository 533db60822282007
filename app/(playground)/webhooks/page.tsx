import type { Metadata } from "next";
import { PageContainer, PageHeader } from "@/components/shell";
import { WebhooksSection } from "@/components/webhooks";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Webhooks"
        description="HTTPS endpoints told about commits, deploys and reads in this project."
      />
      <WebhooksSection />
    </PageContainer>
  );
}

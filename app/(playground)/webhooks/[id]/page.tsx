import type { Metadata } from "next";
import Link from "next/link";
import { PageContainer, PageHeader } from "@/components/shell";
import { SubscriptionView } from "@/components/webhooks";
import { webhooksPath } from "@/components/webhooks/webhook-paths";

export const metadata: Metadata = { title: "Webhook" };

export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <PageContainer>
      <PageHeader
        title="Webhook"
        description={
          <Link href={webhooksPath()} className="underline-offset-2 hover:underline">
            ← All webhooks
          </Link>
        }
      />
      <SubscriptionView id={id} />
    </PageContainer>
  );
}

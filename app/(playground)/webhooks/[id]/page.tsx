import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageContainer, PageHeader } from "@/components/shell";
import { SubscriptionView } from "@/components/webhooks";
import { webhooksPath } from "@/components/webhooks/webhook-paths";
import { isUuid } from "@/shared/ids";

export const metadata: Metadata = { title: "Webhook" };

export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // A malformed id names no webhook: the not-found page, not a validation message.
  if (!isUuid(id)) notFound();
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

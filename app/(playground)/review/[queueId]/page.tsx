import type { Metadata } from "next";
import Link from "next/link";
import { ReviewSession } from "@/components/review";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Review" };

export default async function ReviewQueuePage({ params }: { params: Promise<{ queueId: string }> }) {
  const { queueId } = await params;
  return (
    <PageContainer>
      <PageHeader
        title="Review"
        description="One case at a time: read the inputs and the output, then score it."
        actions={
          <Link href="/review" className="text-sm text-muted hover:text-foreground hover:underline">
            All queues
          </Link>
        }
      />
      <ReviewSession queueId={queueId} />
    </PageContainer>
  );
}

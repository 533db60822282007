import type { Metadata } from "next";
import { ReviewQueues } from "@/components/review";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Review" };

export default function ReviewPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Review"
        description="Score evaluation cases by hand. Your scores join the evaluation's results beside the automatic ones."
      />
      <ReviewQueues />
    </PageContainer>
  );
}

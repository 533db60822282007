import type { Metadata } from "next";
import { ImproveList } from "@/components/improve";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Improve" };

export default function ImprovePage() {
  return (
    <PageContainer>
      <PageHeader
        title="Improve"
        description="Find what fails, turn it into a testset, and let the optimizer propose, measure and ship a better revision."
      />
      <ImproveList />
    </PageContainer>
  );
}

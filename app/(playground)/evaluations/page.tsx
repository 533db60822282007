import type { Metadata } from "next";
import { EvaluationsList } from "@/components/evaluations";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Evaluations" };

export default function EvaluationsPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Evaluations"
        description="Revisions run over a testset, every answer scored by your evaluators. Tick two runs to compare them."
      />
      <EvaluationsList />
    </PageContainer>
  );
}

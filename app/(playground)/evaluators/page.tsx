import type { Metadata } from "next";
import { EvaluatorsList } from "@/components/evaluators";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Evaluators" };

export default function EvaluatorsPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Evaluators"
        description="What scores an output: a comparison with the expected answer, a pattern, or a judge model."
      />
      <EvaluatorsList />
    </PageContainer>
  );
}

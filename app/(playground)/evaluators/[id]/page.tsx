import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EvaluatorName, EvaluatorView, evaluatorsPath } from "@/components/evaluators";
import { PageContainer, PageHeader } from "@/components/shell";
import { isUuid } from "@/shared/ids";

export const metadata: Metadata = { title: "Evaluator" };

export default async function EvaluatorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isUuid(id)) notFound();
  return (
    <PageContainer>
      <PageHeader
        heading={<EvaluatorName id={id} />}
        description={
          <Link href={evaluatorsPath()} className="underline-offset-2 hover:underline">
            ← All evaluators
          </Link>
        }
      />
      <EvaluatorView id={id} />
    </PageContainer>
  );
}

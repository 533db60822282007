import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EvaluatorName, EvaluatorView, evaluatorsPath } from "@/components/evaluators";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Evaluator" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function EvaluatorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!UUID.test(id)) notFound();
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

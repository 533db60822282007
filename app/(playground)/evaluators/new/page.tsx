import type { Metadata } from "next";
import Link from "next/link";
import { NewEvaluator, evaluatorsPath } from "@/components/evaluators";
import { firstParam, type SearchParams } from "@/components/search-params";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "New evaluator" };

export default async function NewEvaluatorPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  return (
    <PageContainer>
      <PageHeader
        title="New evaluator"
        description={
          <Link href={evaluatorsPath()} className="underline-offset-2 hover:underline">
            ← All evaluators
          </Link>
        }
      />
      <NewEvaluator template={firstParam(params.template)} preset={firstParam(params.preset)} />
    </PageContainer>
  );
}

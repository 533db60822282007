import type { Metadata } from "next";
import Link from "next/link";
import { CompareLoader, evaluationsPath, idsOf } from "@/components/evaluations";
import { firstParam, type SearchParams } from "@/components/search-params";
import { PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Compare evaluations" };

export default async function CompareEvaluationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  // Wider than the reading width: outputs sit side by side.
  return (
    <div className="flex w-full max-w-7xl flex-col gap-8 px-4 py-8 md:px-6 md:py-10">
      <PageHeader
        title="Compare evaluations"
        description={
          <Link href={evaluationsPath()} className="underline-offset-2 hover:underline">
            ← All evaluations
          </Link>
        }
      />
      <CompareLoader
        runIds={idsOf(firstParam(params.runs)).slice(0, 5)}
        revisionIds={idsOf(firstParam(params.revisions)).slice(0, 5)}
      />
    </div>
  );
}

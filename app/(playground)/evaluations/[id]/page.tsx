import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EvaluationView, evaluationsPath } from "@/components/evaluations";
import { PageHeader } from "@/components/shell";
import { isUuid } from "@/shared/ids";

export const metadata: Metadata = { title: "Evaluation" };

export default async function EvaluationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isUuid(id)) notFound();
  // Wider than the reading width: outputs sit side by side.
  return (
    <div className="flex w-full max-w-7xl flex-col gap-8 px-4 py-8 md:px-6 md:py-10">
      <PageHeader
        title="Evaluation"
        description={
          <Link href={evaluationsPath()} className="underline-offset-2 hover:underline">
            ← All evaluations
          </Link>
        }
      />
      <EvaluationView id={id} />
    </div>
  );
}

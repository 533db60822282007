import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { improvePath, OptimizationView } from "@/components/improve";
import { PageHeader } from "@/components/shell";
import { isUuid } from "@/shared/ids";

export const metadata: Metadata = { title: "Optimization" };

export default async function OptimizationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isUuid(id)) notFound();
  // Wider than the reading width: the diff sits side by side.
  return (
    <div className="flex w-full max-w-7xl flex-col gap-8 px-4 py-8 md:px-6 md:py-10">
      <PageHeader
        title="Optimization"
        description={
          <Link href={improvePath()} className="underline-offset-2 hover:underline">
            ← Improve
          </Link>
        }
      />
      <OptimizationView id={id} />
    </div>
  );
}

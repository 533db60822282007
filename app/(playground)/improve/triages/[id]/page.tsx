import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { improvePath, TriageView } from "@/components/improve";
import { PageContainer, PageHeader } from "@/components/shell";
import { isUuid } from "@/shared/ids";

export const metadata: Metadata = { title: "Triage" };

export default async function TriagePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isUuid(id)) notFound();
  return (
    <PageContainer>
      <PageHeader
        title="Triage"
        description={
          <Link href={improvePath()} className="underline-offset-2 hover:underline">
            ← Improve
          </Link>
        }
      />
      <TriageView id={id} />
    </PageContainer>
  );
}

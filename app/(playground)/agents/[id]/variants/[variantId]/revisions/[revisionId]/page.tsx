import type { Metadata } from "next";
import { RevisionView } from "@/components/history";

export const metadata: Metadata = { title: "Revision" };

export default async function RevisionPage({ params }: { params: Promise<{ id: string; variantId: string; revisionId: string }> }) {
  const { id, variantId, revisionId } = await params;
  return <RevisionView agentId={id} variantId={variantId} revisionId={revisionId} />;
}

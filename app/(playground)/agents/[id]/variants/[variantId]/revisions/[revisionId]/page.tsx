import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { findOrNotFound } from "@/app/agent-lookup";
import { RevisionView } from "@/components/history";

export const metadata: Metadata = { title: "Revision" };

export default async function RevisionPage({
  params,
}: {
  params: Promise<{ id: string; variantId: string; revisionId: string }>;
}) {
  const { id, variantId, revisionId } = await params;
  const revision = await findOrNotFound([revisionId], (caller) => caller.agents.revision({ id: revisionId }));
  if ((revision as Record<string, unknown>).workflow_id !== id) notFound();
  return <RevisionView agentId={id} variantId={variantId} revisionId={revisionId} />;
}

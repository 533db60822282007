import type { Metadata } from "next";
import { HistoryView } from "@/components/history";

export const metadata: Metadata = { title: "History" };

export default async function HistoryPage({ params }: { params: Promise<{ id: string; variantId: string }> }) {
  const { id, variantId } = await params;
  return <HistoryView agentId={id} variantId={variantId} />;
}

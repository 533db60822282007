import type { Metadata } from "next";
import { ChatView } from "@/components/chat";

export const metadata: Metadata = { title: "Chat" };

export default async function ChatPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; variantId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ id, variantId }, query] = await Promise.all([params, searchParams]);
  const revision = Array.isArray(query.revision) ? query.revision[0] : query.revision;
  return <ChatView agentId={id} variantId={variantId} revisionId={revision || undefined} />;
}

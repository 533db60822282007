import type { Metadata } from "next";
import { firstParam, type SearchParams } from "@/components/search-params";
import { ChatView } from "@/components/chat";

export const metadata: Metadata = { title: "Chat" };

export default async function ChatPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; variantId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ id, variantId }, query] = await Promise.all([params, searchParams]);
  return (
    <ChatView
      agentId={id}
      variantId={variantId}
      revisionId={firstParam(query.revision)}
      sessionId={firstParam(query.session)}
      traceId={firstParam(query.trace)}
      compare={firstParam(query.compare) === "1"}
    />
  );
}

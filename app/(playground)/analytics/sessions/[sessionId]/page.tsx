import type { Metadata } from "next";
import { SessionView } from "@/components/analytics";
import { PageContainer } from "@/components/shell";

export const metadata: Metadata = { title: "Session" };

/** One conversation's turns. */
export default async function SessionPage({ params }: { params: Promise<{ sessionId: string }> }) {
  const { sessionId } = await params;
  return (
    <PageContainer>
      <h1 className="sr-only">Session</h1>
      <SessionView sessionId={decodeURIComponent(sessionId)} />
    </PageContainer>
  );
}

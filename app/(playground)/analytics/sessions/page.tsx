import type { Metadata } from "next";
import { SessionsView } from "@/components/analytics";
import { firstParam, type SearchParams } from "@/components/search-params";
import { PageContainer } from "@/components/shell";

export const metadata: Metadata = { title: "Sessions" };

/** Conversations of the project's agents; `?user=` narrows them to one user (the Users view links here). */
export default async function SessionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = firstParam((await searchParams).user)?.trim() || undefined;
  return (
    <PageContainer>
      <h1 className="sr-only">Sessions</h1>
      <SessionsView user={user} />
    </PageContainer>
  );
}

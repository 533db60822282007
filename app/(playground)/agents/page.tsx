import type { Metadata } from "next";
import { Suspense } from "react";
import { AgentsPage, AgentsPageSkeleton } from "@/components/agents";

export const metadata: Metadata = { title: "Agents" };

export default function Page() {
  // The list reads `?q=` and `?archived=` on the client; Suspense lets the shell render first.
  return (
    <Suspense fallback={<AgentsPageSkeleton />}>
      <AgentsPage />
    </Suspense>
  );
}

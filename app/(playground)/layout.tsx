import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { AppShell } from "@/components/shell";
import { currentSession } from "@/app/server-session";

export const dynamic = "force-dynamic";

/** Every playground page needs a signed-in member; the login page explains what to do otherwise. */
export default async function PlaygroundLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) redirect("/login");
  return (
    <AppShell
      account={{
        user: session.user,
        projects: session.memberships,
        current: session.principal ? { projectId: session.principal.projectId, role: session.principal.role } : null,
      }}
    >
      {children}
    </AppShell>
  );
}

import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth";
import { ConsentView } from "@/components/oauth";
import { Notice } from "@/components/ui";
import { currentSession } from "@/app/server-session";
import { getApp } from "@/server/boot";
import { isAppError } from "@/server/core/errors";
import { authorizationRequest, checkAuthorization } from "@/server/oauth";
import type { SearchParams } from "@/components/search-params";

export const metadata: Metadata = { title: "Authorize an MCP client" };
export const dynamic = "force-dynamic";

/** The MCP authorization flow's consent: log in first, then allow or deny the client for one project. */
export default async function AuthorizePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const query = Object.fromEntries(
    Object.entries(await searchParams).flatMap(([name, value]) =>
      typeof value === "string" ? [[name, value]] : Array.isArray(value) && value[0] ? [[name, value[0]]] : [],
    ),
  );
  const session = await currentSession();
  if (!session) redirect(`/login?next=${encodeURIComponent(`/oauth/authorize?${new URLSearchParams(query)}`)}`);
  const parsed = authorizationRequest.safeParse(query);
  if (!parsed.success)
    return (
      <AuthCard title="This authorization request cannot be used">
        <Notice tone="warning">{parsed.error.issues.map((issue) => issue.message).join("; ")}</Notice>
      </AuthCard>
    );
  const { context } = await getApp();
  const facts = await checkAuthorization(context.db, parsed.data, {
    id: session.user.id,
    projectId: session.principal?.projectId,
  }).catch((error: unknown) => {
    if (isAppError(error)) return error;
    throw error;
  });
  if (isAppError(facts))
    return (
      <AuthCard title="This authorization request cannot be used">
        <Notice tone="warning">{facts.message}</Notice>
      </AuthCard>
    );
  return (
    <ConsentView
      facts={{
        clientName: facts.clientName,
        projectName: facts.projectName,
        scopes: facts.scopes,
        signedInAs: session.user.email,
      }}
      request={parsed.data as Record<string, string>}
    />
  );
}

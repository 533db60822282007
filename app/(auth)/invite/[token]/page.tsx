import type { Metadata } from "next";
import { AuthCard, InviteView } from "@/components/auth";
import { Notice } from "@/components/ui";
import { currentSession } from "@/app/server-session";
import { getApp } from "@/server/boot";
import { previewInvite } from "@/server/auth";
import { isAppError } from "@/server/core/errors";

export const metadata: Metadata = { title: "Invitation" };
export const dynamic = "force-dynamic";

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { context } = await getApp();
  const invite = await previewInvite(context.db, token).catch((error: unknown) => {
    if (isAppError(error)) return error;
    throw error;
  });
  if (isAppError(invite))
    return (
      <AuthCard title="This invitation cannot be used">
        <Notice tone="warning">{invite.message}</Notice>
      </AuthCard>
    );
  const session = await currentSession();
  return (
    <InviteView
      token={token}
      invite={{ projectName: invite.projectName, role: invite.role }}
      signedInAs={session?.user.email ?? null}
    />
  );
}

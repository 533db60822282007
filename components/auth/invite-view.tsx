"use client";

import { AuthCard } from "./auth-card";
import { CredentialsForm } from "./credentials-form";
import { postJson } from "./post-json";
import { Button, Notice } from "@/components/ui";
import { useState } from "react";

export interface InviteFacts {
  projectName: string;
  role: string;
}

/** `/invite/<token>`: join with a new account, or, when signed in already, with this one. */
export function InviteView({
  token,
  invite,
  signedInAs,
}: {
  token: string;
  invite: InviteFacts;
  signedInAs: string | null;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const title = `Join ${invite.projectName}`;
  const description = `You are invited as ${invite.role === "owner" ? "an owner" : `a ${invite.role}`}.`;

  if (signedInAs) {
    async function accept() {
      setBusy(true);
      try {
        await postJson(`/api/accounts/invites/${encodeURIComponent(token)}/accept`, {});
        window.location.assign("/");
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
        setBusy(false);
      }
    }
    return (
      <AuthCard title={title} description={`${description} You are logged in as ${signedInAs}.`}>
        {error && <Notice tone="danger">{error}</Notice>}
        <Button variant="primary" loading={busy} onClick={accept}>
          Join {invite.projectName}
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={title} description={`${description} Create your account to accept.`}>
      <CredentialsForm
        withName
        submitLabel="Create account and join"
        onSubmit={async (v) => {
          await postJson("/api/accounts/sign-up", { ...v, invite_token: token });
          window.location.assign("/");
        }}
        footer={
          <a
            href={`/login?next=${encodeURIComponent(`/invite/${token}`)}`}
            className="text-sm text-accent hover:underline"
          >
            I have an account: log in first
          </a>
        }
      />
    </AuthCard>
  );
}

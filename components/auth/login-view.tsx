"use client";

import { useState } from "react";
import { AuthCard } from "./auth-card";
import { CredentialsForm } from "./credentials-form";
import { postJson } from "./post-json";

/**
 * `/login`: while nobody can log in yet, it creates the owner account (who takes over the default
 * project and the key printed at first start); afterwards it signs in, or signs up when the
 * operator opened sign-up.
 */
export function LoginView({
  ownerExists,
  signUpOpen,
  next,
}: {
  ownerExists: boolean;
  signUpOpen: boolean;
  next: string;
}) {
  const [mode, setMode] = useState<"sign-in" | "sign-up">("sign-in");
  const done = () => window.location.assign(next);

  if (!ownerExists) {
    return (
      <AuthCard
        title="Create the owner account"
        description="Nobody has an account on this instance yet. The first account owns the default project, its data and the API key printed when the server first started."
      >
        <CredentialsForm
          withName
          submitLabel="Create owner account"
          onSubmit={async (v) => (await postJson("/api/accounts/owner", v), done())}
        />
      </AuthCard>
    );
  }

  if (mode === "sign-up") {
    return (
      <AuthCard
        title="Create an account"
        description="You get a project of your own; owners of other projects can invite you to theirs."
      >
        <CredentialsForm
          withName
          submitLabel="Create account"
          onSubmit={async (v) => (await postJson("/api/accounts/sign-up", v), done())}
          footer={<SwitchLink onClick={() => setMode("sign-in")}>I have an account: log in</SwitchLink>}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Log in"
      description={signUpOpen ? undefined : "Accounts are by invitation: ask a project owner for an invite link."}
    >
      <CredentialsForm
        withName={false}
        submitLabel="Log in"
        onSubmit={async (v) => (
          await postJson("/api/auth/sign-in/email", { email: v.email.trim().toLowerCase(), password: v.password }),
          done()
        )}
        footer={
          signUpOpen ? (
            <SwitchLink onClick={() => setMode("sign-up")}>No account yet? Create one</SwitchLink>
          ) : undefined
        }
      />
    </AuthCard>
  );
}

function SwitchLink({ onClick, children }: { onClick: () => void; children: string }) {
  return (
    <button type="button" onClick={onClick} className="text-sm text-accent hover:underline">
      {children}
    </button>
  );
}

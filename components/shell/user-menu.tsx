"use client";

import { useState } from "react";
import { postJson } from "@/components/auth/post-json";
import { Button } from "@/components/ui";
import { useAccount } from "./account-context";

/** Who is signed in, and the way out. */
export function UserMenu() {
  const { user } = useAccount();
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    await postJson("/api/auth/sign-out", {}).catch(() => undefined);
    window.location.assign("/login");
  }
  return (
    <div className="flex min-w-0 items-center gap-3 text-sm">
      <span className="hidden min-w-0 flex-col text-right leading-tight sm:flex">
        <span className="truncate font-medium" data-testid="user-name">
          {user.name ?? user.email}
        </span>
        <span className="truncate text-xs text-muted">{user.email}</span>
      </span>
      <Button size="sm" variant="ghost" loading={busy} onClick={signOut}>
        Log out
      </Button>
    </div>
  );
}

"use client";

import { useState } from "react";
import { postJson } from "@/components/auth/post-json";
import { markSigningOut } from "@/components/trpc/query-client";
import { Button } from "@/components/ui";
import { useAccount } from "./account-context";
import { ThemeToggle } from "./theme-toggle";

/** Who is signed in, the colour theme, and the way out. */
export function UserMenu() {
  const { user } = useAccount();
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    markSigningOut();
    await postJson("/api/auth/sign-out", {}).catch(() => undefined);
    window.location.assign("/login");
  }
  return (
    <div className="flex min-w-0 shrink-0 items-center gap-2 text-sm sm:gap-3">
      <span className="hidden max-w-48 min-w-0 flex-col text-right leading-tight sm:flex">
        <span className="truncate font-medium" data-testid="user-name">
          {user.name ?? user.email}
        </span>
        <span className="truncate text-xs text-muted">{user.email}</span>
      </span>
      <ThemeToggle />
      <Button size="sm" variant="ghost" loading={busy} onClick={signOut}>
        Log out
      </Button>
    </div>
  );
}

"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { ShellAccount } from "./account";

const AccountContext = createContext<ShellAccount | null>(null);

export function AccountProvider({ account, children }: { account: ShellAccount; children: ReactNode }) {
  return <AccountContext.Provider value={account}>{children}</AccountContext.Provider>;
}

/** The signed-in visitor; pages use it to hide what their role cannot do (the server refuses it anyway). */
export function useAccount(): ShellAccount {
  const account = useContext(AccountContext);
  if (!account) throw new Error("useAccount outside the playground shell");
  return account;
}

/** Whether the visitor may change the current project's data (members and owners). */
export function useCanEdit(): boolean {
  const role = useAccount().current?.role;
  return role === "owner" || role === "member";
}

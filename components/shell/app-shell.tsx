import type { ReactNode } from "react";
import type { ShellAccount } from "./account";
import { AccountProvider } from "./account-context";
import { Sidebar } from "./sidebar";
import { TopBar } from "./top-bar";

/** Sidebar, top bar and a main area that pages fill (flex, so a split editor/chat view fits later). */
export function AppShell({ account, children }: { account: ShellAccount; children: ReactNode }) {
  return (
    <AccountProvider account={account}>
      <div className="flex min-h-screen">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-surface focus:px-3 focus:py-2 focus:shadow-lg"
        >
          Skip to content
        </a>
        <Sidebar />
        <div className="flex min-w-0 flex-1 flex-col">
          <TopBar />
          <main id="main" className="flex min-h-0 flex-1 flex-col">
            {children}
          </main>
        </div>
      </div>
    </AccountProvider>
  );
}

"use client";

import { Badge } from "@/components/ui";
import { useAccount } from "./account-context";
import { MenuDrawer } from "./menu-drawer";
import { ProjectSwitcher } from "./project-switcher";
import { UserMenu } from "./user-menu";

export function TopBar() {
  const { current } = useAccount();
  return (
    <header className="sticky top-0 z-10 flex h-14 shrink-0 items-center justify-between gap-2 border-b border-line bg-surface/80 px-4 sm:gap-4 backdrop-blur md:px-6">
      <div className="flex min-w-0 items-center gap-2 text-sm">
        <MenuDrawer />
        <span className="hidden text-muted sm:inline">Project</span>
        <span aria-hidden="true" className="hidden text-line-strong sm:inline">
          /
        </span>
        <ProjectSwitcher />
        {current && (
          <Badge tone={current.role === "viewer" ? "warning" : "neutral"}>
            <span data-testid="project-role">{current.role}</span>
          </Badge>
        )}
      </div>
      <UserMenu />
    </header>
  );
}

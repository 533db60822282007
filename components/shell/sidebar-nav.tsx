"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn, focusRing } from "@/components/ui";
import { navItems } from "./nav-items";

function isActive(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

/** The main navigation, in the sidebar and in the narrow screens' menu drawer. */
export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-col gap-0.5">
      {navItems.map(({ href, label, icon: Icon }) => {
        const active = isActive(pathname, href);
        return (
          <Link
            key={href}
            href={href}
            aria-current={active ? "page" : undefined}
            title={label}
            onClick={onNavigate}
            className={cn(
              "flex h-8 items-center gap-2.5 rounded-md px-2 text-sm font-medium transition-colors",
              active
                ? "bg-surface-muted text-foreground"
                : "text-muted hover:bg-surface-muted/70 hover:text-foreground",
              focusRing,
            )}
          >
            <Icon className={cn("size-4 shrink-0", active && "text-accent")} />
            <span>{label}</span>
          </Link>
        );
      })}
    </nav>
  );
}

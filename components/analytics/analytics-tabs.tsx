"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui";

const TABS = [
  { href: "/analytics", label: "Charts" },
  { href: "/analytics/sessions", label: "Sessions" },
  { href: "/analytics/users", label: "Users" },
  { href: "/analytics/dashboards", label: "Dashboards" },
] as const;

/** The Analytics pages' own navigation: the charts, sessions, users and saved dashboards. */
export function AnalyticsTabs() {
  const path = usePathname();
  const current = TABS.findLast((t) => path === t.href || path.startsWith(`${t.href}/`));
  return (
    <nav aria-label="Analytics views" className="flex flex-wrap gap-1 border-b border-line">
      {TABS.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          aria-current={current === t ? "page" : undefined}
          className={cn(
            "-mb-px border-b-2 px-3 py-2 text-sm font-medium",
            current === t ? "border-accent text-fg" : "border-transparent text-muted hover:text-fg",
          )}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

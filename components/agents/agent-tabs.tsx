"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn, focusRing } from "@/components/ui";
import { tabOfPath, variantTabPath, type AgentTab } from "./agent-paths";
import { ChatIcon, ConnectIcon, EditIcon, HistoryIcon, RocketIcon, RunsIcon } from "./icons";

const TABS: Array<{ tab: AgentTab; label: string; icon: typeof EditIcon }> = [
  { tab: "editor", label: "Editor", icon: EditIcon },
  { tab: "chat", label: "Chat", icon: ChatIcon },
  { tab: "history", label: "History", icon: HistoryIcon },
  { tab: "runs", label: "Runs", icon: RunsIcon },
  { tab: "deploy", label: "Deploy", icon: RocketIcon },
  { tab: "connect", label: "Connect", icon: ConnectIcon },
];

/** The views of one variant, as links: each has its own URL. */
export function AgentTabs({ agentId, variantId }: { agentId: string; variantId: string }) {
  const active = tabOfPath(usePathname());
  return (
    // Scrolls sideways on a phone instead of widening the page.
    <nav aria-label="Agent views" className="-mb-px mt-3 flex gap-1 overflow-x-auto [scrollbar-width:none]">
      {TABS.map(({ tab, label, icon: Icon }) => {
        const current = tab === active;
        return (
          <Link
            key={tab}
            href={variantTabPath(agentId, variantId, tab)}
            aria-current={current ? "page" : undefined}
            ref={current ? revealInStrip : undefined}
            className={cn(
              "flex h-9 shrink-0 items-center gap-1.5 rounded-t-md border-b-2 px-3 text-sm font-medium transition-colors",
              current
                ? "border-accent text-foreground"
                : "border-transparent text-muted hover:border-line-strong hover:text-foreground",
              focusRing,
            )}
          >
            <Icon className={cn("size-3.5", current && "text-accent")} />
            {label}
          </Link>
        );
      })}
    </nav>
  );
}

/** On a phone the strip scrolls sideways: the current tab (Connect, the last) is scrolled into it. */
function revealInStrip(tab: HTMLAnchorElement | null) {
  const strip = tab?.parentElement;
  if (!tab || !strip) return;
  const right = tab.offsetLeft + tab.offsetWidth;
  if (right > strip.scrollLeft + strip.clientWidth) strip.scrollLeft = right - strip.clientWidth;
  else if (tab.offsetLeft < strip.scrollLeft) strip.scrollLeft = tab.offsetLeft;
}

"use client";

import { ChatIcon, PanelRightIcon } from "@/components/agents";
import { Button } from "@/components/ui";

/** The right-hand pane the playground's chat moves into; for now it says so and can be tucked away. */
export function ChatPane({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  if (!open) return null;
  return (
    <aside
      aria-label="Chat"
      className="sticky top-14 hidden h-[calc(100vh-3.5rem)] w-80 shrink-0 flex-col border-l border-line bg-surface lg:flex 2xl:w-[400px]"
    >
      <header className="flex h-12 items-center justify-between border-b border-line px-4">
        <h2 className="flex items-center gap-2 text-sm font-semibold">
          <ChatIcon className="size-4 text-muted" />
          Chat
        </h2>
        <Button size="sm" variant="ghost" className="w-7 px-0!" onClick={onToggle} aria-label="Hide chat panel" title="Hide chat panel">
          <PanelRightIcon className="size-4" />
        </Button>
      </header>
      <div className="flex flex-1 flex-col items-center justify-center gap-3 px-8 text-center">
        <div className="flex size-11 items-center justify-center rounded-xl border border-line bg-surface-muted text-muted">
          <ChatIcon className="size-5" />
        </div>
        <p className="text-sm font-medium">Chat comes in a later release</p>
        <p className="text-sm text-muted">You will talk to this agent here, next to its template, and try a draft before you commit it.</p>
      </div>
      <div className="m-4 flex h-10 items-center rounded-lg border border-dashed border-line px-3 text-sm text-muted/70" aria-hidden="true">
        Message the agent…
      </div>
    </aside>
  );
}

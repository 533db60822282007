"use client";

import { useMemo, useRef } from "react";
import { ChatIcon, PanelRightIcon } from "@/components/agents";
import { ChatPanel, useViewportFit, type ChatTarget } from "@/components/chat";
import { Button } from "@/components/ui";

/** The right-hand pane: a chat with the draft as it is now, committed or not. */
export function ChatPane({
  agentId,
  variantId,
  open,
  onToggle,
  template,
}: {
  agentId: string;
  variantId: string;
  open: boolean;
  onToggle: () => void;
  template: unknown | null;
}) {
  const target = useMemo<ChatTarget | null>(
    () => (template === null ? null : { kind: "draft", template, variantId }),
    [template, variantId],
  );
  if (!open) return null;
  return <DraftChat agentId={agentId} variantId={variantId} onToggle={onToggle} target={target} />;
}

function DraftChat({
  agentId,
  variantId,
  onToggle,
  target,
}: {
  agentId: string;
  variantId: string;
  onToggle: () => void;
  target: ChatTarget | null;
}) {
  // Below the agent's header until the page scrolls, then stuck under the top bar: either way
  // the composer stays on screen.
  const pane = useRef<HTMLElement>(null);
  useViewportFit(pane);
  return (
    <aside
      ref={pane}
      aria-label="Chat"
      className="sticky top-14 hidden h-[calc(100vh-3.5rem)] w-80 shrink-0 flex-col border-l border-line bg-surface lg:flex 2xl:w-[400px]"
    >
      <header className="flex h-12 items-center justify-between border-b border-line px-4">
        <h2 className="flex items-center gap-2 text-sm font-semibold">
          <ChatIcon className="size-4 text-muted" />
          Chat with the draft
        </h2>
        <Button
          size="sm"
          variant="ghost"
          className="w-7 px-0!"
          onClick={onToggle}
          aria-label="Hide chat panel"
          title="Hide chat panel"
        >
          <PanelRightIcon className="size-4" />
        </Button>
      </header>
      <ChatPanel
        agentId={agentId}
        variantId={variantId}
        target={target}
        unavailable={target === null ? "Fix the JSON syntax error to chat with the draft." : undefined}
        emptyHint="Try the template as it is in the editor, before you commit it."
      />
    </aside>
  );
}

"use client";

import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { TabContainer } from "@/components/history/tab-container";
import { cn, focusRing, Skeleton } from "@/components/ui";
import { ChatPanel } from "./chat-panel";
import { chatPath } from "./chat-paths";
import { CompareView } from "./compare-view";
import { useChatTargets } from "./use-chat-targets";
import { useChatSessions } from "./use-chat-sessions";
import { useInitialSession } from "./use-initial-session";
import { useViewportFit } from "./use-viewport-fit";

export interface ChatViewProps {
  agentId: string;
  variantId: string;
  revisionId?: string;
  sessionId?: string;
  traceId?: string;
  compare?: boolean;
}

/**
 * `/agents/[id]/variants/[variantId]/chat`: a chat with a committed template (the variant's latest
 * revision, one revision, or what an environment runs), reopening a stored session or a run from
 * its trace; or, with `?compare=1`, the same messages to two targets side by side.
 */
export function ChatView(props: ChatViewProps) {
  const { agentId, variantId, compare } = props;
  return (
    <TabContainer wide className="gap-3">
      <nav aria-label="Chat mode" className="flex gap-1">
        <ModeLink href={chatPath(agentId, variantId, { revision: props.revisionId })} current={!compare}>
          Chat
        </ModeLink>
        <ModeLink
          href={chatPath(agentId, variantId, { revision: props.revisionId, compare: true })}
          current={Boolean(compare)}
        >
          Compare side by side
        </ModeLink>
      </nav>
      {compare ? (
        <CompareView agentId={agentId} variantId={variantId} revisionId={props.revisionId} />
      ) : (
        <SingleChat {...props} />
      )}
    </TabContainer>
  );
}

function ModeLink({ href, current, children }: { href: string; current: boolean; children: string }) {
  return (
    <Link
      href={href}
      aria-current={current ? "page" : undefined}
      className={cn(
        "rounded-md px-2.5 py-1 text-sm font-medium",
        current ? "bg-accent-soft text-accent" : "text-muted hover:bg-surface-muted hover:text-foreground",
        focusRing,
      )}
    >
      {children}
    </Link>
  );
}

function SingleChat({ agentId, variantId, revisionId, sessionId, traceId }: ChatViewProps) {
  const options = useChatTargets(agentId, variantId, revisionId);
  const [chosen, setChosen] = useState(options[0].value);
  const option = options.find((o) => o.value === chosen) ?? options[0];
  const opening = useInitialSession(agentId, variantId, sessionId, traceId);
  // The rest of the window (above the tab's bottom padding): the more messages on screen the better.
  const box = useRef<HTMLDivElement>(null);
  useViewportFit(box, { bottomGap: 24, minHeight: 420 });
  // The URL names the session on screen, so a reload or a shared link reopens it. The history API
  // changes the address without a navigation: the conversation (and a turn in flight) stays.
  const nameInUrl = useCallback(
    (session: string | undefined) =>
      window.history.replaceState(null, "", chatPath(agentId, variantId, { revision: revisionId, session })),
    [agentId, variantId, revisionId],
  );
  // A run opened from its trace (an automation's firing, an API call) becomes a stored session at
  // once, so it is found again in the session list and the address names it, not the trace.
  const { save } = useChatSessions(agentId, variantId);
  const unsaved = opening.unsaved ? opening.initial : null;
  const savedOnOpen = useRef<string>(undefined);
  useEffect(() => {
    if (!unsaved || savedOnOpen.current === unsaved.id) return;
    savedOnOpen.current = unsaved.id;
    save(unsaved.id, unsaved.messages);
    nameInUrl(unsaved.id);
  }, [unsaved, save, nameInUrl]);

  return (
    <div
      ref={box}
      className="flex h-[calc(100vh-17rem)] min-h-[420px] flex-col overflow-hidden rounded-xl border border-line bg-surface"
    >
      {opening.pending ? (
        <div className="p-4">
          <Skeleton className="h-24" />
        </div>
      ) : (
        // A new target is a new conversation: its history came from another template.
        <ChatPanel
          key={`${option.value}:${opening.initial?.id ?? ""}`}
          agentId={agentId}
          variantId={variantId}
          target={option.target}
          initial={option.value === options[0].value ? opening.initial : null}
          notice={opening.problem}
          onSessionChange={option.value === options[0].value ? nameInUrl : undefined}
          emptyHint="Send a message to run this agent. Each turn shows its tokens, cost and trace."
          toolbar={
            <div className="flex min-w-0 flex-1 basis-64 items-center gap-2">
              <label htmlFor="chat-target" className="shrink-0 text-sm font-medium">
                Chat with
              </label>
              <div className="min-w-0 flex-1">
                <SelectInput id="chat-target" value={option.value} onChange={(e) => setChosen(e.target.value)}>
                  {options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </SelectInput>
              </div>
            </div>
          }
        />
      )}
    </div>
  );
}

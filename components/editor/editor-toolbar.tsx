"use client";

import { PanelRightIcon, VersionBadge, type EditorView } from "@/components/agents";
import type { ReactNode } from "react";
import { Badge, Button, TimeAgo } from "@/components/ui";
import { AuthorName } from "./author-name";
import type { TemplateVerdict } from "./template-verdict";
import type { EditorBase } from "./types";
import { ValidationStatus } from "./validation-status";
import { ViewSwitch } from "./view-switch";

/** Above the editor: the view, the revision it starts from, the draft's state and health. */
export function EditorToolbar({
  agentId,
  variantId,
  view,
  base,
  dirty,
  onDiscard,
  verdict,
  chatOpen,
  onToggleChat,
  actions,
}: {
  agentId: string;
  variantId: string;
  view: EditorView;
  base: EditorBase;
  dirty: boolean;
  onDiscard: () => void;
  verdict: TemplateVerdict;
  chatOpen: boolean;
  onToggleChat: () => void;
  /** Further actions on this variant (evaluate it). */
  actions?: ReactNode;
}) {
  return (
    <div className="sticky top-14 z-[5] flex min-h-12 flex-wrap items-center gap-x-4 gap-y-2 border-b border-line bg-background/90 px-4 py-2 backdrop-blur md:px-6">
      <ViewSwitch agentId={agentId} variantId={variantId} view={view} />
      <div className="flex min-w-0 flex-1 items-center gap-2 text-xs text-muted">
        <span data-testid="current-version">
          <VersionBadge version={base.version} tone="accent" title={`Revision ${base.revisionId}`} />
        </span>
        <span className="min-w-0 truncate">
          {base.message ? (
            <span className="text-foreground/80">{base.message}</span>
          ) : (
            <span className="italic">No message</span>
          )}
          <span className="mx-1.5 text-line-strong">·</span>
          <AuthorName id={base.author} />
          {base.date && (
            <>
              <span className="mx-1.5 text-line-strong">·</span>
              <TimeAgo iso={base.date} />
            </>
          )}
        </span>
      </div>
      <div className="flex items-center gap-2">
        <ValidationStatus verdict={verdict} />
        {actions}
        {dirty && (
          <>
            <span data-testid="unsaved-indicator">
              <Badge tone="warning" dot>
                Unsaved changes
              </Badge>
            </span>
            <Button size="sm" variant="ghost" onClick={onDiscard}>
              Discard
            </Button>
          </>
        )}
        {!chatOpen && (
          // The pane itself has the hide button; below `lg` there is no room for it.
          <span className="hidden lg:block">
            <Button
              size="sm"
              variant="ghost"
              className="w-7 px-0!"
              onClick={onToggleChat}
              aria-label="Show chat panel"
              title="Show chat panel"
            >
              <PanelRightIcon className="size-4" />
            </Button>
          </span>
        )}
      </div>
    </div>
  );
}

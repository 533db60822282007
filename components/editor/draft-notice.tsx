"use client";

import { Button, Notice, formatRelative } from "@/components/ui";
import type { StoredDraft } from "./draft-storage";
import type { EditorBase } from "./types";

/** Says that the editor shows a draft from an earlier visit, and whether the variant moved on meanwhile. */
export function DraftNotice({
  draft,
  base,
  onDismiss,
  onDiscard,
}: {
  draft: StoredDraft;
  base: EditorBase;
  onDismiss: () => void;
  onDiscard: () => void;
}) {
  const savedAgo = formatRelative(new Date(draft.savedAt));
  const discard = (
    <Button size="sm" onClick={onDiscard}>
      Discard draft
    </Button>
  );
  if (draft.baseRevisionId !== base.revisionId) {
    return (
      <Notice
        tone="warning"
        title={`Your draft started from v${draft.baseVersion}; v${base.version} has been committed since`}
        action={discard}
      >
        Committing it makes your draft the next version, replacing what v{base.version} changed. Check the History tab
        first, or discard the draft to start from v{base.version}.
      </Notice>
    );
  }
  return (
    <Notice
      title="Restored your unsaved draft"
      action={
        <div className="flex gap-2">
          {discard}
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            Dismiss
          </Button>
        </div>
      }
    >
      Saved in this browser {savedAgo}. Commit it to make it a new version.
    </Notice>
  );
}

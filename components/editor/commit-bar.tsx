"use client";

import { Kbd } from "@/components/agents";
import { useCanEdit } from "@/components/shell/account-context";
import { AlertIcon, Button, CheckIcon, Input, cn } from "@/components/ui";
import { modKeyLabel } from "./shortcut-label";

/** The bottom of the editor: a commit message and the Commit button (Ctrl/⌘+Enter or Ctrl/⌘+S). */
export function CommitBar({
  message,
  onMessage,
  onCommit,
  committing,
  dirty,
  blocked: blockedByDraft,
  nextVersion,
  outcome,
}: {
  message: string;
  onMessage: (message: string) => void;
  onCommit: () => void;
  committing: boolean;
  dirty: boolean;
  /** Why committing cannot work right now (a syntax error), if so. */
  blocked: string | null;
  nextVersion: number;
  /** The last commit's result, said here rather than in a toast that would cover this bar. */
  outcome: { tone: "success" | "danger"; text: string } | null;
}) {
  const mod = modKeyLabel();
  const canEdit = useCanEdit();
  const blocked = canEdit ? blockedByDraft : "Viewers cannot commit; an owner can make you a member";
  const status = blocked ?? (dirty ? `Commits version ${nextVersion}` : "No changes to commit");
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onCommit();
      }}
      className="sticky bottom-0 z-[5] flex items-center gap-3 border-t border-line bg-surface/95 px-4 py-3 backdrop-blur md:px-6"
    >
      <label htmlFor="commit-message" className="sr-only">
        Commit message
      </label>
      <Input
        id="commit-message"
        value={message}
        onChange={(event) => onMessage(event.target.value)}
        placeholder="Describe your change (optional)"
        maxLength={10_000}
        autoComplete="off"
        className="h-9 min-w-0 flex-1"
      />
      <span
        data-testid="commit-status"
        aria-live="polite"
        className={cn(
          "items-center gap-1.5 text-xs whitespace-nowrap",
          outcome ? "flex" : "hidden text-muted xl:flex",
          outcome?.tone === "success" && "text-success",
          outcome?.tone === "danger" && "text-danger",
        )}
      >
        {outcome?.tone === "success" && <CheckIcon className="size-3.5" />}
        {outcome?.tone === "danger" && <AlertIcon className="size-3.5" />}
        {outcome?.text ?? status}
      </span>
      <Button
        type="submit"
        variant="primary"
        className="h-9 px-4"
        disabled={!dirty || blocked !== null}
        loading={committing}
        aria-keyshortcuts="Control+Enter Meta+Enter Control+S Meta+S"
        title={blocked ?? (dirty ? `Commit (${mod}+Enter)` : "No changes to commit")}
      >
        Commit
        <span className="ml-1 flex gap-0.5">
          <Kbd tone="inverted">{mod}</Kbd>
          <Kbd tone="inverted">↵</Kbd>
        </span>
      </Button>
    </form>
  );
}

"use client";

import Link from "next/link";
import { useRef } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { AlertIcon, Button, CheckIcon, Input, Kbd, cn, useToastClearance } from "@/components/ui";
import { modKeyLabel } from "./shortcut-label";

/** The bottom of the editor: a commit message and the Commit button (Ctrl/⌘+Enter or Ctrl/⌘+S). */
export function CommitBar({
  message,
  onMessage,
  onCommit,
  committing,
  dirty,
  blocked: blockedByDraft,
  problemsHref,
  nextVersion,
  outcome,
}: {
  message: string;
  onMessage: (message: string) => void;
  onCommit: () => void;
  committing: boolean;
  dirty: boolean;
  /** Why committing cannot work right now (problems in the template), if so. */
  blocked: string | null;
  /** The problems panel, where a blocked commit's reasons are listed. */
  problemsHref: string;
  nextVersion: number;
  /** The last commit's result, said here rather than in a toast that would cover this bar. */
  outcome: { tone: "success" | "danger"; text: string } | null;
}) {
  const mod = modKeyLabel();
  const canEdit = useCanEdit();
  const blocked = canEdit ? blockedByDraft : "Viewers cannot commit; an owner can make you a member";
  const status = blocked ?? (dirty ? `Commits version ${nextVersion}` : "No changes to commit");
  // A disabled button shows no tooltip: the reason and the way to the problems stay in view.
  const problemsBlock = canEdit && blockedByDraft !== null && dirty && !outcome;
  const bar = useRef<HTMLFormElement>(null);
  useToastClearance(bar);
  return (
    <form
      ref={bar}
      onSubmit={(event) => {
        event.preventDefault();
        onCommit();
      }}
      className="sticky bottom-0 z-[5] flex flex-wrap items-center gap-x-3 gap-y-2 border-t border-line bg-surface/95 px-4 py-3 backdrop-blur md:px-6"
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
          // On a phone the status takes its own row under the message and the button.
          "order-last basis-full items-center gap-1.5 text-xs sm:order-none sm:basis-auto sm:whitespace-nowrap",
          outcome ? "flex" : problemsBlock ? "flex text-danger" : "hidden text-muted xl:flex",
          outcome?.tone === "success" && "text-success",
          outcome?.tone === "danger" && "text-danger",
        )}
      >
        {outcome?.tone === "success" && <CheckIcon className="size-3.5" />}
        {outcome?.tone === "danger" && <AlertIcon className="size-3.5" />}
        {problemsBlock && <AlertIcon className="size-3.5" />}
        {outcome?.text ?? status}
        {problemsBlock && (
          <Link
            href={problemsHref}
            className="font-medium underline underline-offset-2 hover:text-foreground"
            data-testid="show-problems"
          >
            Show problems
          </Link>
        )}
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
          <Kbd aria-hidden="true" tone="inverted">
            {mod}
          </Kbd>
          <Kbd aria-hidden="true" tone="inverted">
            ↵
          </Kbd>
        </span>
      </Button>
    </form>
  );
}

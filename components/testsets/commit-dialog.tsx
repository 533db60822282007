"use client";

import { useId, useState } from "react";
import { Button, Dialog, Notice } from "@/components/ui";
import { describeDiff } from "./describe-diff";
import type { RowDiff } from "./row-diff";

/** What the commit will change (rows added, removed, changed; columns), and its message. */
export function CommitDialog({
  open,
  diff,
  nextVersion,
  busy,
  error,
  onClose,
  onCommit,
}: {
  open: boolean;
  diff: RowDiff | null;
  nextVersion: string;
  busy: boolean;
  error?: string;
  onClose: () => void;
  onCommit: (message: string) => void;
}) {
  const id = useId();
  const [message, setMessage] = useState("");
  const summary = diff ? describeDiff(diff) : [];
  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      title={`Commit as v${nextVersion}`}
      description="A new version of the testset; the previous ones stay in its history."
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant="primary" loading={busy} onClick={() => onCommit(message.trim())}>
            Commit v{nextVersion}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <ul className="flex flex-col gap-1 text-sm" data-testid="commit-summary">
          {summary.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={id} className="text-sm font-medium">
            Message <span className="font-normal text-muted">(optional)</span>
          </label>
          <textarea
            id={id}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            maxLength={10_000}
            rows={3}
            placeholder={summary[0]}
            data-autofocus
            className="w-full rounded-md border border-line bg-surface px-2.5 py-1.5 text-sm shadow-xs outline-none focus:border-accent focus:ring-3 focus:ring-accent/20"
          />
        </div>
        {error && (
          <Notice tone="danger" title="Could not commit">
            {error}
          </Notice>
        )}
      </div>
    </Dialog>
  );
}

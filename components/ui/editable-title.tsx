"use client";

import { useState, type FormEvent } from "react";
import { cn } from "./cn";
import { focusRing } from "./focus-ring";
import { PencilIcon } from "./icons";
import { Input } from "./input";

/**
 * A page's title that can be renamed in place: click the pencil (or double-click the name), Enter
 * or leaving the field saves, Escape cancels. `onRename` rejects to keep the field open (its caller
 * shows why). Without `onRename` (a viewer) it is a plain heading.
 */
export function EditableTitle({
  value,
  noun,
  onRename,
  pending = false,
  className,
}: {
  value: string;
  /** What is named: "agent" labels the field "Agent name" and the button "Rename agent". */
  noun: string;
  onRename?: (name: string) => Promise<unknown>;
  pending?: boolean;
  className?: string;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);

  function start() {
    if (!onRename) return;
    setDraft(value);
    setEditing(true);
  }

  async function save(event?: FormEvent) {
    event?.preventDefault();
    const name = draft.trim();
    if (!onRename || name === "" || name === value) return setEditing(false);
    try {
      await onRename(name);
      setEditing(false);
    } catch {
      // Stays open with what was typed; the caller said why.
    }
  }

  if (editing) {
    return (
      <form onSubmit={save} className="flex items-center">
        <Input
          aria-label={`${noun[0].toUpperCase()}${noun.slice(1)} name`}
          autoFocus
          value={draft}
          maxLength={256}
          disabled={pending}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={() => save()}
          onKeyDown={(event) => {
            if (event.key === "Escape") {
              event.preventDefault();
              setEditing(false);
            }
          }}
          className={cn("h-8 w-72 max-w-full font-semibold tracking-tight", className)}
        />
      </form>
    );
  }

  return (
    <div className="group flex min-w-0 items-center gap-1">
      <h1 className={cn("truncate font-semibold tracking-tight", className)} onDoubleClick={start}>
        {value}
      </h1>
      {onRename && (
        <button
          type="button"
          onClick={start}
          aria-label={`Rename ${noun}`}
          title="Rename"
          className={cn(
            "rounded-md p-1 text-muted opacity-60 transition group-hover:opacity-100 hover:bg-surface-muted hover:text-foreground",
            focusRing,
          )}
        >
          <PencilIcon className="size-3.5" />
        </button>
      )}
    </div>
  );
}

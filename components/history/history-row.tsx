"use client";

import Link from "next/link";
import type { Ref } from "react";
import { EnvironmentBadge } from "@/components/environments/environment-badge";
import { Badge, TimeAgo, buttonClass, cn, focusRing } from "@/components/ui";
import { Author } from "./author";
import { agentPaths } from "./paths";
import { versionLabel, type AgentRevision } from "./types";

export interface HistoryRowProps {
  agentId: string;
  variantId: string;
  revision: AgentRevision;
  /** The next older revision, for "compare with previous". */
  previous?: AgentRevision;
  latest: boolean;
  environments: string[];
  selected: boolean;
  active: boolean;
  fresh: boolean;
  linkRef?: Ref<HTMLAnchorElement>;
  onToggle: () => void;
  onActivate: () => void;
  onRestore: () => void;
  onFork: () => void;
}

/** One revision in the log: select it, open it, compare with the previous one, restore, fork or deploy it. */
export function HistoryRow({
  agentId,
  variantId,
  revision,
  previous,
  latest,
  environments,
  selected,
  active,
  fresh,
  linkRef,
  onToggle,
  onActivate,
  onRestore,
  onFork,
}: HistoryRowProps) {
  const label = versionLabel(revision);
  return (
    <li
      data-testid="revision-row"
      data-version={revision.version}
      data-active={active || undefined}
      onFocusCapture={onActivate}
      className={cn(
        // Wraps on a phone: the actions take their own line instead of squeezing the message away.
        "group relative flex flex-wrap items-center gap-x-3 gap-y-1 py-2.5 pr-3 pl-4 transition-colors",
        selected ? "bg-accent-soft/50" : "hover:bg-surface-muted/50",
        active && "shadow-[inset_2px_0_0_var(--accent)]",
        fresh && "animate-[pulse_1.2s_ease-in-out_2] bg-success-soft/60",
      )}
    >
      <input
        type="checkbox"
        checked={selected}
        onChange={onToggle}
        aria-label={`Select ${label} to compare`}
        className="size-4 shrink-0 cursor-pointer rounded border-line-strong accent-[var(--accent)]"
      />
      <Link
        ref={linkRef}
        href={agentPaths.revision(agentId, variantId, revision.id)}
        className={cn("flex min-w-40 flex-1 basis-40 items-center gap-3 rounded-md py-0.5", focusRing)}
        aria-label={`${label}: ${revision.message ?? "no message"}`}
      >
        <span className="w-10 shrink-0 font-mono text-xs font-semibold text-foreground tabular-nums">{label}</span>
        <span className={cn("truncate", revision.message ? "text-foreground" : "text-muted italic")}>
          {revision.message ?? "No message"}
        </span>
      </Link>
      <span className="flex shrink-0 items-center gap-1.5">
        {latest && <Badge tone="neutral">Latest</Badge>}
        {environments.map((env) => (
          <EnvironmentBadge key={env} slug={env} />
        ))}
      </span>
      <span className="hidden w-36 shrink-0 text-xs text-muted lg:block">
        <Author id={revision.author} />
      </span>
      <span className="shrink-0 text-right text-xs text-muted tabular-nums sm:w-24">
        <TimeAgo iso={revision.date} />
      </span>
      <span
        data-testid="revision-actions"
        className={cn(
          "ml-auto flex shrink-0 items-center gap-0.5 transition-opacity",
          // Always shown to a touch screen (no pointer that hovers, whatever its width), for the
          // selected and the keyboard's row; with a mouse, on hover or focus anywhere in the row.
          active || selected
            ? "opacity-100"
            : "opacity-100 lg:pointer-fine:opacity-0 lg:pointer-fine:group-hover:opacity-100 lg:pointer-fine:group-focus-within:opacity-100",
        )}
      >
        {previous ? (
          <Link
            href={agentPaths.diff(agentId, variantId, previous.id, revision.id)}
            className={buttonClass({ variant: "ghost", size: "sm" })}
            aria-label={`Compare ${label} with ${versionLabel(previous)}`}
            title={`Compare with ${versionLabel(previous)}`}
          >
            Diff
          </Link>
        ) : (
          // The first revision has nothing to diff against: an invisible twin keeps its columns where every other row has them.
          <span aria-hidden="true" className={cn(buttonClass({ variant: "ghost", size: "sm" }), "invisible")}>
            Diff
          </span>
        )}
        <button
          type="button"
          onClick={onRestore}
          disabled={latest}
          className={buttonClass({ variant: "ghost", size: "sm" })}
          aria-label={`Restore ${label}`}
          title={latest ? "Already the latest revision" : `Commit ${label}'s template as a new revision`}
        >
          Restore
        </button>
        <button
          type="button"
          onClick={onFork}
          className={buttonClass({ variant: "ghost", size: "sm" })}
          aria-label={`Fork a variant from ${label}`}
        >
          Fork
        </button>
        <Link
          href={agentPaths.deploy(agentId, variantId, revision.id)}
          className={buttonClass({ variant: "ghost", size: "sm" })}
          aria-label={`Deploy ${label}`}
        >
          Deploy
        </Link>
      </span>
    </li>
  );
}

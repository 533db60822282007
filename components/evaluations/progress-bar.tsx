import type { Evaluation } from "./types";

/** Cells done out of all cells, as a bar and in words (a screen reader gets the numbers). */
export function ProgressBar({ evaluation }: { evaluation: Evaluation }) {
  const total = evaluation.progress?.cells_total ?? 0;
  const done = evaluation.progress?.cells_done ?? 0;
  const share = total > 0 ? done / total : 0;
  return (
    <div className="flex min-w-0 items-center gap-3">
      <div
        role="progressbar"
        aria-label="Cells done"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        className="h-2 min-w-24 flex-1 overflow-hidden rounded-full bg-surface-muted"
      >
        <div
          className="h-full rounded-full bg-accent transition-[width]"
          style={{ width: `${Math.round(share * 100)}%` }}
        />
      </div>
      <span className="shrink-0 text-xs text-muted tabular-nums" data-testid="progress-text">
        {done} / {total} cells
      </span>
    </div>
  );
}

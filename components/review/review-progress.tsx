import { Button, Kbd } from "@/components/ui";

/** The queue's name, how many cases are reviewed, Previous / Next and the progress bar. */
export function ReviewProgress({
  name,
  done,
  total,
  index,
  go,
}: {
  name: string | undefined | null;
  done: number;
  total: number;
  index: number;
  go: (to: number) => void;
}) {
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex min-w-0 flex-wrap items-baseline gap-x-2 text-sm">
          <span className="truncate font-medium">{name ?? "Unnamed evaluation"}</span>
          <span className="text-muted" data-testid="review-progress">
            {done} of {total} reviewed
          </span>
        </span>
        <span className="flex items-center gap-2">
          <Button size="sm" onClick={() => go(index - 1)} disabled={index === 0} aria-keyshortcuts="k">
            Previous <Kbd aria-hidden>k</Kbd>
          </Button>
          <Button size="sm" onClick={() => go(index + 1)} disabled={index >= total - 1} aria-keyshortcuts="j">
            Next <Kbd aria-hidden>j</Kbd>
          </Button>
        </span>
      </div>
      <span
        className="h-1.5 w-full overflow-hidden rounded-full bg-surface-muted"
        role="progressbar"
        aria-label="Reviewed"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <span
          className="block h-full rounded-full bg-accent transition-[width]"
          style={{ width: `${(done / total) * 100}%` }}
        />
      </span>
    </div>
  );
}

import type { DiffStats } from "./line-diff";

/** "+12 −3" with a small bar, like a pull request's file header. */
export function DiffStatsBadge({ stats }: { stats: DiffStats }) {
  const total = stats.added + stats.removed;
  const blocks = 5;
  const green = total === 0 ? 0 : Math.round((stats.added / total) * blocks);
  const red = total === 0 ? 0 : blocks - green;
  return (
    <span
      className="inline-flex items-center gap-2 font-mono text-xs"
      aria-label={`${stats.added} lines added, ${stats.removed} lines removed`}
    >
      <span aria-hidden="true" className="text-success">
        +{stats.added}
      </span>
      <span aria-hidden="true" className="text-danger">
        −{stats.removed}
      </span>
      <span aria-hidden="true" className="flex gap-px">
        {Array.from({ length: blocks }, (_, i) => (
          <span
            key={i}
            className={`size-2 rounded-[1px] ${i < green ? "bg-success" : i < green + red ? "bg-danger" : "bg-line-strong"}`}
          />
        ))}
      </span>
    </span>
  );
}

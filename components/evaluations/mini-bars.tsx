/** A tiny histogram: one bar per bucket, heights relative to the tallest; labelled for screen readers. */
export function MiniBars({
  counts,
  label,
  tone = "accent",
}: {
  counts: number[];
  label: string;
  tone?: "accent" | "muted";
}) {
  const max = Math.max(1, ...counts);
  return (
    <div role="img" aria-label={label} className="flex h-10 items-end gap-0.5" title={label}>
      {counts.map((count, i) => (
        <div
          key={i}
          className={tone === "accent" ? "flex-1 rounded-t-sm bg-accent/70" : "flex-1 rounded-t-sm bg-line-strong"}
          style={{ height: `${count === 0 ? 2 : Math.max(8, (count / max) * 100)}%`, opacity: count === 0 ? 0.35 : 1 }}
        />
      ))}
    </div>
  );
}

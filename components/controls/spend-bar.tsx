import { cn } from "@/components/ui";
import { formatUsd } from "./usd";

/** A budget's spend against its limit, with its warning level marked. */
export function SpendBar({ spent, limit, warnPercent }: { spent: number; limit: number; warnPercent: number }) {
  const percent = Math.min(100, (spent / limit) * 100);
  const tone = spent >= limit ? "bg-danger" : percent >= warnPercent ? "bg-warning" : "bg-accent";
  return (
    <div className="flex flex-col gap-1">
      <div
        role="meter"
        aria-label="Spent of the limit"
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={spent}
        aria-valuetext={`${formatUsd(spent)} of ${formatUsd(limit)}`}
        className="relative h-2 w-full overflow-hidden rounded-full bg-line"
      >
        <div className={cn("h-full rounded-full", tone)} style={{ width: `${percent}%` }} />
        <div className="absolute top-0 h-full w-px bg-foreground/50" style={{ left: `${warnPercent}%` }} />
      </div>
      <span className="text-xs text-muted">
        {formatUsd(spent)} of {formatUsd(limit)} ({percent.toFixed(0)}%)
      </span>
    </div>
  );
}

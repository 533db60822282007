import { cn } from "@/components/ui";
import { isAnnotated, type ReviewItem, type ReviewStep } from "./types";

/** The cases of the session down the side (wide screens), each marked reviewed or not. */
export function CaseList({
  items,
  steps,
  index,
  go,
}: {
  items: ReviewItem[];
  steps: ReviewStep[];
  index: number;
  go: (to: number) => void;
}) {
  return (
    <nav aria-label="Cases" className="hidden lg:block">
      <ol className="flex max-h-[70vh] flex-col gap-0.5 overflow-y-auto rounded-xl border border-line bg-surface p-1.5 shadow-xs">
        {items.map((it, i) => (
          <li key={it.scenarioId}>
            <button
              type="button"
              onClick={() => go(i)}
              aria-current={i === index ? "true" : undefined}
              className={cn(
                "flex w-full items-center gap-2 rounded-md px-2.5 py-1.5 text-left text-sm",
                i === index ? "bg-accent-soft text-accent" : "hover:bg-surface-muted",
              )}
            >
              <span
                aria-hidden="true"
                className={cn("size-2 shrink-0 rounded-full", isAnnotated(it, steps) ? "bg-success" : "bg-line-strong")}
              />
              <span className="shrink-0 tabular-nums">Case {i + 1}</span>
              <span className="min-w-0 truncate text-xs text-muted">{summaryOf(it.inputs)}</span>
              <span className="sr-only">{isAnnotated(it, steps) ? "(reviewed)" : "(to review)"}</span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** A line that tells cases apart in the list: the first input value. */
function summaryOf(inputs: unknown): string {
  if (!inputs || typeof inputs !== "object") return "";
  const first = Object.values(inputs as Record<string, unknown>)[0];
  return typeof first === "string" ? first : first === undefined ? "" : JSON.stringify(first);
}

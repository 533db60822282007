import { cn } from "@/components/ui";

const TONES: Record<string, string> = {
  builtin: "bg-surface-muted text-muted border-line",
  client: "bg-accent-soft text-accent border-transparent",
  code: "bg-success-soft text-success border-transparent",
};

/** The kind of a tool entry, as a small fixed-width tag so names line up. */
export function ToolTypeBadge({ type }: { type: string }) {
  return (
    <span
      className={cn(
        "inline-flex w-[4.5rem] shrink-0 justify-center rounded border px-1.5 py-0.5 font-mono text-[11px] font-medium",
        TONES[type] ?? "bg-warning-soft text-warning border-transparent",
      )}
    >
      {type}
    </span>
  );
}

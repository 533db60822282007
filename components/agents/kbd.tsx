import type { ReactNode } from "react";
import { cn } from "@/components/ui";

const tones = {
  default: "border-line bg-surface-muted text-muted",
  /** On a primary (accent) button. */
  inverted: "border-white/25 bg-white/15 text-white",
};

/** A key as printed on a keyboard, for shortcut hints; hidden from screen readers (aria-keyshortcuts says it). */
export function Kbd({ children, tone = "default", className }: { children: ReactNode; tone?: keyof typeof tones; className?: string }) {
  return (
    <kbd
      aria-hidden="true"
      className={cn(
        "inline-flex h-[18px] min-w-[18px] items-center justify-center rounded border px-1 font-sans text-[10px] font-medium",
        tones[tone],
        className,
      )}
    >
      {children}
    </kbd>
  );
}

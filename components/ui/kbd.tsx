import type { HTMLAttributes } from "react";
import { cn } from "./cn";

const tones = {
  default: "border-line bg-surface-muted text-muted",
  /** On a primary (accent) button. */
  inverted: "border-white/25 bg-white/15 text-white",
};

/**
 * A key as printed on a keyboard, for shortcut hints. Inside a control that states its shortcut
 * with `aria-keyshortcuts`, pass `aria-hidden` so the key is not read twice.
 */
export function Kbd({
  tone = "default",
  className,
  ...rest
}: HTMLAttributes<HTMLElement> & { tone?: keyof typeof tones }) {
  return (
    <kbd
      {...rest}
      className={cn(
        "inline-flex h-[18px] min-w-[18px] items-center justify-center rounded border px-1 font-sans text-[10px] font-medium",
        tones[tone],
        className,
      )}
    />
  );
}

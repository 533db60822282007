import type { ComponentProps } from "react";
import { cn } from "./cn";

const looks = {
  /** Prose: a comment, a note, a message. */
  text: "px-2.5 py-1.5 text-sm shadow-xs placeholder:text-muted/70",
  /** JSON, schemas, prompts: monospace, tighter. */
  code: "p-2 font-mono text-xs leading-5",
};

/**
 * The multi-line field, styled as `Input`. `className` adds classes (a height, a margin); it
 * cannot override these, since `cn` joins classes instead of merging them.
 */
export function Textarea({
  look = "text",
  className,
  ...props
}: ComponentProps<"textarea"> & { look?: keyof typeof looks }) {
  return (
    <textarea
      className={cn(
        "w-full resize-y rounded-md border border-line bg-surface text-foreground outline-none",
        "focus:border-accent focus:ring-3 focus:ring-accent/20 aria-invalid:border-danger disabled:opacity-60",
        looks[look],
        className,
      )}
      {...props}
    />
  );
}

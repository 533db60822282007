import type { ReactNode } from "react";

/**
 * Catalog descriptions mark names with backticks (`correct_answer`): drawn as code, not as
 * literal backticks. Nothing else of Markdown is interpreted.
 */
export function InlineCode({ text }: { text: string }): ReactNode {
  return text.split(/(`[^`]+`)/).map((part, i) =>
    part.length > 2 && part.startsWith("`") && part.endsWith("`") ? (
      <code key={i} className="rounded bg-surface-muted px-1 font-mono text-[0.92em]">
        {part.slice(1, -1)}
      </code>
    ) : (
      part
    ),
  );
}

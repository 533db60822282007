import { cn } from "@/components/ui";
import type { DiffLine, Segment } from "./line-diff";

/** The absent side of an added or removed row: faint diagonal hatching, like a code review tool. */
const hatch =
  "bg-surface-muted/60 bg-[repeating-linear-gradient(-45deg,transparent_0,transparent_5px,var(--line)_5px,var(--line)_6px)]";

export type Side = "left" | "right";

const tone = {
  removed: {
    line: "bg-danger-soft",
    number: "bg-danger/15 text-danger",
    mark: "bg-danger/25 rounded-[2px]",
    sign: "-",
  },
  added: {
    line: "bg-success-soft",
    number: "bg-success/15 text-success",
    mark: "bg-success/25 rounded-[2px]",
    sign: "+",
  },
  plain: { line: "", number: "text-muted/70", mark: "", sign: " " },
};

export type CellTone = keyof typeof tone;

/** Line number and text of one side of a row; an absent line is drawn as a hatched gap. */
export function DiffLineCells({
  line,
  cellTone,
  segments,
}: {
  line?: DiffLine;
  cellTone: CellTone;
  segments?: Segment[] | null;
}) {
  if (!line) {
    return (
      <>
        <td aria-hidden="true" className={cn("border-r border-line/60", hatch)} />
        <td aria-hidden="true" className={hatch} />
      </>
    );
  }
  const t = tone[cellTone];
  return (
    <>
      <td
        className={cn("w-12 border-r border-line/60 px-2 text-right align-top tabular-nums select-none", t.number)}
        aria-label={`line ${line.number}`}
      >
        {line.number}
      </td>
      <td className={cn("px-2 align-top", t.line)}>
        <div className="flex">
          <span
            aria-hidden="true"
            className={cn(
              "w-3 shrink-0 select-none",
              cellTone === "removed" ? "text-danger" : cellTone === "added" ? "text-success" : "",
            )}
          >
            {t.sign}
          </span>
          {cellTone !== "plain" && <span className="sr-only">{cellTone === "removed" ? "removed: " : "added: "}</span>}
          <code className="min-w-0 flex-1 whitespace-pre-wrap [overflow-wrap:anywhere]">
            {segments
              ? segments.map((s, i) =>
                  s.changed ? (
                    <mark key={i} className={cn("text-inherit", t.mark)}>
                      {s.text}
                    </mark>
                  ) : (
                    <span key={i}>{s.text}</span>
                  ),
                )
              : line.text || " "}
          </code>
        </div>
      </td>
    </>
  );
}

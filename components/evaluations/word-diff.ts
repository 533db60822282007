import { diffSequences } from "@/components/diff/myers";

export interface DiffSegment {
  type: "equal" | "delete" | "insert";
  text: string;
}

/** Words and the whitespace between them, so joining the tokens gives the text back. */
const tokens = (text: string) => text.split(/(\s+)/).filter((t) => t !== "");

/**
 * The words of `b` against `a`: runs of kept, deleted and inserted text, adjacent runs of one
 * kind merged. Past a few thousand edits the rest is one deletion and one insertion (Myers'
 * cap), which keeps a 5,000-character answer cheap to render.
 */
export function wordDiff(a: string, b: string): DiffSegment[] {
  const left = tokens(a);
  const right = tokens(b);
  const segments: DiffSegment[] = [];
  const push = (type: DiffSegment["type"], text: string) => {
    const last = segments.at(-1);
    if (last?.type === type) last.text += text;
    else segments.push({ type, text });
  };
  for (const edit of diffSequences(left, right, { maxEdits: 2_000 })) {
    if (edit.type === "equal") push("equal", left[edit.aIndex]);
    else if (edit.type === "delete") push("delete", left[edit.aIndex]);
    else push("insert", right[edit.bIndex]);
  }
  return segments;
}

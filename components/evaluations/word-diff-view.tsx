import { clampBox } from "./output-view";
import { wordDiff } from "./word-diff";

/** `text` against `baseline`, word by word: removed words struck through, added ones highlighted. */
export function WordDiffView({ baseline, text }: { baseline: string; text: string }) {
  const segments = wordDiff(baseline, text);
  return (
    <div className={`${clampBox} text-sm`} data-testid="word-diff">
      {segments.map((s, i) =>
        s.type === "equal" ? (
          <span key={i}>{s.text}</span>
        ) : s.type === "delete" ? (
          <del key={i} className="rounded-sm bg-danger-soft text-danger decoration-danger/60">
            {s.text}
          </del>
        ) : (
          <ins key={i} className="rounded-sm bg-success-soft text-success no-underline">
            {s.text}
          </ins>
        ),
      )}
    </div>
  );
}

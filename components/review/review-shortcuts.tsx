import { Kbd } from "@/components/ui";

/** The keyboard shortcuts of a review session, for the scales its steps use. */
export function ReviewShortcuts({ scales }: { scales: Set<string> }) {
  const item = (keys: string[], what: string) => (
    <li className="flex items-center gap-1.5">
      {keys.map((k) => (
        <Kbd key={k}>{k}</Kbd>
      ))}
      <span>{what}</span>
    </li>
  );
  return (
    <ul aria-label="Keyboard shortcuts" className="hidden flex-wrap gap-x-4 gap-y-1.5 text-xs text-muted sm:flex">
      {item(["j", "→"], "next")}
      {item(["k", "←"], "previous")}
      {scales.has("score") && item(["1", "–", "5"], "score")}
      {scales.has("pass_fail") && item(["p", "f"], "pass / fail")}
      {item(["c"], "comment")}
      {item(["Ctrl", "Enter"], "save comment")}
    </ul>
  );
}

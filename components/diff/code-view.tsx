import { cn } from "@/components/ui";
import { splitLines } from "./line-diff";

/** Read-only text with line numbers (a revision's template). */
export function CodeView({ text, label, className }: { text: string; label: string; className?: string }) {
  const lines = splitLines(text);
  return (
    <div className={cn("overflow-auto", className)}>
      <table aria-label={label} className="w-full table-fixed border-collapse font-mono text-xs leading-5">
        <colgroup>
          <col className="w-12" />
          <col />
        </colgroup>
        <tbody>
          {lines.map((line, i) => (
            <tr key={i}>
              <td className="border-r border-line/60 px-2 text-right align-top text-muted/70 tabular-nums select-none">
                {i + 1}
              </td>
              <td className="px-3 align-top">
                <code className="whitespace-pre-wrap [overflow-wrap:anywhere]">{line || " "}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { Badge } from "@/components/ui";
import { InputsView, OutputView } from "./output-view";
import type { ReviewItem } from "./types";

/** What the reviewer judges: the case's inputs, the output, and the automatic scores beside it. */
export function CaseDetails({ item }: { item: ReviewItem }) {
  return (
    <>
      <section className="flex flex-col gap-2">
        <h3 className="text-xs font-medium tracking-wide text-muted uppercase">Inputs</h3>
        <InputsView value={item.inputs} />
      </section>
      <section className="flex flex-col gap-2">
        <h3 className="text-xs font-medium tracking-wide text-muted uppercase">
          Output
          {item.outputStatus && item.outputStatus !== "success" && (
            <Badge tone="danger" className="ml-2 normal-case">
              {item.outputStatus}
            </Badge>
          )}
        </h3>
        <OutputView value={item.output} />
      </section>
      {item.scores.length > 0 && (
        <section className="flex flex-col gap-2">
          <h3 className="text-xs font-medium tracking-wide text-muted uppercase">Automatic scores</h3>
          <ul className="flex flex-wrap gap-2">
            {item.scores.map((s) => (
              <li key={s.name} className="rounded-md border border-line px-2 py-1 text-xs">
                <span className="font-mono">{s.name}</span>{" "}
                <span className="font-mono font-semibold tabular-nums">
                  {s.score === undefined ? "—" : Math.round(s.score * 100) / 100}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

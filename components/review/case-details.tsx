import Link from "next/link";
import { tracePath } from "@/components/traces";
import { Badge } from "@/components/ui";
import { InputsView, OutputView } from "./output-view";
import { outputPending, revisionLabel, type ReviewedRevision, type ReviewItem } from "./types";

/**
 * What the reviewer judges: the case's inputs, the output of the queue's revision (with a link to
 * its trace) when the queue runs one, or what the case's own trace answered when it came from one,
 * and the automatic scores beside it.
 */
export function CaseDetails({ item, revision }: { item: ReviewItem; revision: ReviewedRevision | undefined }) {
  return (
    <>
      <section className="flex flex-col gap-2">
        <h3 className="text-xs font-medium tracking-wide text-muted uppercase">Inputs</h3>
        <InputsView value={item.inputs} />
      </section>
      {(revision || item.traceId) && (
        <section className="flex flex-col gap-2" aria-labelledby="review-output-title">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 id="review-output-title" className="text-xs font-medium tracking-wide text-muted uppercase">
              Output{" "}
              <span className="normal-case">
                {revision ? <span className="font-mono">· {revisionLabel(revision)}</span> : "· from its trace"}
              </span>
              {item.outputStatus && item.outputStatus !== "success" && !outputPending(item) && (
                <Badge tone="danger" className="ml-2 normal-case">
                  {item.outputStatus}
                </Badge>
              )}
            </h3>
            {item.traceId && (
              <Link href={tracePath(item.traceId)} className="text-xs text-accent hover:underline">
                Open trace
              </Link>
            )}
          </div>
          {revision && outputPending(item) ? (
            <p role="status" className="text-sm text-muted">
              {revisionLabel(revision)} is answering this case; it can be reviewed once its output is here.
            </p>
          ) : (
            <OutputView value={item.output} />
          )}
        </section>
      )}
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

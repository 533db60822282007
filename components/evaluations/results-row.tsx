"use client";

import Link from "next/link";
import { tracePath } from "@/components/traces/trace-paths";
import { cn } from "@/components/ui";
import { formatCost, formatDuration, formatScore } from "./format";
import { reasonOf } from "./output-text";
import { InputsView, OutputView, clampBox } from "./output-view";
import { EXPECTED_COLUMNS, expectedOf, rowFailed } from "./row-filters";
import { StatusBadge } from "./status-badge";
import type { EvaluationRow } from "./types";

const scoreTone = (score: number | undefined) =>
  score === undefined ? "text-muted" : score >= 1 ? "text-success" : score <= 0 ? "text-danger" : "text-warning";

function ScoreCell({ name, cell }: { name: string; cell: EvaluationRow["scores"][string] | undefined }) {
  const reason = reasonOf(cell?.outputs);
  const error = cell?.error as { message?: string } | undefined;
  return (
    <div className="min-w-0" data-testid="score-cell">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="truncate font-medium text-muted" title={name}>
          {name}
        </span>
        {cell?.score !== undefined ? (
          <span className={cn("font-semibold tabular-nums", scoreTone(cell.score))}>{formatScore(cell.score)}</span>
        ) : (
          <StatusBadge status={cell?.status} />
        )}
      </div>
      {reason && <p className={`${clampBox} mt-0.5 max-h-24 text-xs text-muted`}>{reason}</p>}
      {error?.message && <p className={`${clampBox} mt-0.5 max-h-24 text-xs text-danger`}>{error.message}</p>}
    </div>
  );
}

/**
 * One testcase: inputs, expected answer, the output (as chat messages for an agent), each
 * evaluator's score with its reason, what it cost, and its trace. Stacked on a phone, a grid row
 * from `lg` up.
 */
export function ResultsRow({ row, index, evaluators }: { row: EvaluationRow; index: number; evaluators: string[] }) {
  const expected = expectedOf(row.inputs);
  const inputs =
    row.inputs && typeof row.inputs === "object"
      ? Object.fromEntries(
          Object.entries(row.inputs as Record<string, unknown>).filter(([k]) => !EXPECTED_COLUMNS.includes(k)),
        )
      : row.inputs;
  const outputError = row.output_error as { message?: string } | undefined;
  return (
    <li
      className={cn(
        "grid min-w-0 gap-3 px-4 py-3 lg:grid-cols-[2.5rem_minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,2fr)_minmax(0,1.3fr)_7rem]",
        rowFailed(row) && "bg-danger-soft/30",
      )}
      data-testid="result-row"
    >
      <div className="flex items-center gap-2 lg:flex-col lg:items-start">
        <span className="text-xs text-muted tabular-nums">#{index + 1}</span>
        <span className="lg:hidden">
          <StatusBadge status={row.output_status ?? row.status} />
        </span>
      </div>
      <div className="min-w-0">
        <span className="text-xs font-medium text-muted lg:hidden">Inputs</span>
        <InputsView inputs={inputs} />
      </div>
      <div className="min-w-0">
        <span className="text-xs font-medium text-muted lg:hidden">Expected</span>
        <div className={`${clampBox} text-sm`}>
          {expected ? (
            typeof expected.value === "string" ? (
              expected.value
            ) : (
              JSON.stringify(expected.value)
            )
          ) : (
            <span className="text-xs text-muted">—</span>
          )}
        </div>
      </div>
      <div className="min-w-0">
        <span className="text-xs font-medium text-muted lg:hidden">Output</span>
        {row.output_status && row.output_status !== "success" && row.output === undefined ? (
          <div className="flex flex-col gap-1">
            <StatusBadge status={row.output_status} />
            {outputError?.message && <p className={`${clampBox} text-xs text-danger`}>{outputError.message}</p>}
          </div>
        ) : (
          <OutputView output={row.output} label={`Output of testcase ${index + 1}`} />
        )}
      </div>
      <div className="flex min-w-0 flex-col gap-2">
        {evaluators.map((name) => (
          <ScoreCell key={name} name={name} cell={row.scores[name]} />
        ))}
      </div>
      <div className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted tabular-nums lg:flex-col">
        <span title="Latency">{formatDuration(row.latency_ms)}</span>
        <span title="Tokens">{row.tokens !== undefined ? `${row.tokens.toLocaleString("en")} tok` : "— tok"}</span>
        <span title="Cost">{formatCost(row.cost_usd)}</span>
        {row.trace_id && (
          <Link href={tracePath(row.trace_id)} className="text-accent underline-offset-2 hover:underline">
            Trace
          </Link>
        )}
      </div>
    </li>
  );
}

import type { Step, StoredRunData } from "../model/run-data";

export interface PlannedCell {
  stepKey: string;
  repeatIdx: number;
  status: "success" | "queued" | "pending";
  /** Null: waits for its invocation cell. */
  due: boolean;
}

/** Whether the evaluators of every repeat score one application output (reference §4.4). */
export function sharedInvocation(data: StoredRunData, flags: Record<string, boolean>): boolean {
  return data.steps.some((s) => s.type === "annotation") && !flags.is_split;
}

/** Human cells wait for a person; `auto` and `custom` evaluators run here (see the README). */
export const isExecutable = (step: Step) =>
  step.type === "invocation" || (step.type === "annotation" && step.origin !== "human");

/**
 * The cells of one scenario: input cells are done at once, invocation cells are due at once,
 * evaluator cells are due once their invocation cell succeeded (at once when the run has no
 * application), human cells wait as `pending`.
 */
export function planScenarioCells(data: StoredRunData, flags: Record<string, boolean>): PlannedCell[] {
  const repeats = Array.from({ length: data.repeats }, (_, i) => i);
  const hasApp = data.steps.some((s) => s.type === "invocation");
  const cells: PlannedCell[] = [];
  for (const step of data.steps) {
    if (step.type === "input") {
      for (const r of repeats) cells.push({ stepKey: step.key, repeatIdx: r, status: "success", due: false });
    } else if (step.type === "invocation") {
      for (const r of sharedInvocation(data, flags) ? [0] : repeats)
        cells.push({ stepKey: step.key, repeatIdx: r, status: "queued", due: true });
    } else {
      for (const r of repeats) {
        cells.push(
          isExecutable(step)
            ? { stepKey: step.key, repeatIdx: r, status: "queued", due: !hasApp }
            : { stepKey: step.key, repeatIdx: r, status: "pending", due: false },
        );
      }
    }
  }
  return cells;
}

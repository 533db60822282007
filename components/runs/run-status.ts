import type { BadgeTone } from "@/components/ui";

export type RunStatus = "running" | "finished" | "failed" | "paused" | "cancelled";

/** How each run status reads; the keys are also the status filter's choices, in this order. */
export const RUN_STATUS_LOOK: Record<RunStatus, { label: string; tone: BadgeTone }> = {
  running: { label: "Running", tone: "accent" },
  finished: { label: "Finished", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  paused: { label: "Paused", tone: "warning" },
  cancelled: { label: "Cancelled", tone: "neutral" },
};

export const RUN_STATUS_CHOICES = Object.keys(RUN_STATUS_LOOK) as RunStatus[];

/** A status from the URL; anything unknown means no filter rather than an error page. */
export function runStatusOf(value: string | undefined): RunStatus | undefined {
  return RUN_STATUS_CHOICES.find((status) => status === value);
}

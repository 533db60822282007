import { Badge, type BadgeTone } from "@/components/ui";
import type { OptimizationStatus } from "./types";

const TONES: Record<OptimizationStatus, BadgeTone> = {
  queued: "neutral",
  running: "accent",
  succeeded: "success",
  failed: "danger",
  cancelled: "warning",
  stopped: "warning",
};

const LABELS: Record<OptimizationStatus, string> = {
  queued: "Queued",
  running: "Running",
  succeeded: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
  stopped: "Stopped at the spend cap",
};

/** A triage's or optimization's status in words, with a dot (not told by colour alone). */
export function ImproveStatusBadge({ status }: { status: OptimizationStatus }) {
  return (
    <Badge tone={TONES[status] ?? "neutral"} dot>
      <span data-testid="improve-status">{LABELS[status] ?? status}</span>
    </Badge>
  );
}

import { Badge, type BadgeTone } from "@/components/ui";

const TONES: Record<string, BadgeTone> = {
  success: "success",
  failure: "danger",
  errors: "danger",
  cancelled: "warning",
  running: "accent",
  queued: "neutral",
  pending: "neutral",
};

const LABELS: Record<string, string> = {
  success: "Done",
  failure: "Failed",
  errors: "Errors",
  cancelled: "Stopped",
  running: "Running",
  queued: "Queued",
  pending: "Waiting",
};

/** A run's, row's or cell's status in words, with a dot (not told by colour alone). */
export function StatusBadge({ status }: { status: string | undefined }) {
  const s = status ?? "pending";
  return (
    <Badge tone={TONES[s] ?? "neutral"} dot>
      {LABELS[s] ?? s}
    </Badge>
  );
}

import { Badge, TimeAgo } from "@/components/ui";
import type { Subscription } from "./types";

/**
 * Active, failing (active, but every delivery has failed since `failing_since`: it stops by itself
 * if that goes on) or stopped, with why. One place, so the list and the detail page agree.
 */
export function SubscriptionState({
  subscription: s,
}: {
  subscription: Pick<Subscription, "flags" | "failing_since" | "stopped_reason">;
}) {
  if (!s.flags.is_active) {
    return (
      <span className="inline-flex flex-wrap items-center gap-2">
        <Badge tone="warning" dot>
          Stopped
        </Badge>
        {s.stopped_reason && <span className="text-xs text-danger">{s.stopped_reason}</span>}
      </span>
    );
  }
  if (s.failing_since) {
    return (
      <span className="inline-flex flex-wrap items-center gap-2">
        <Badge tone="danger" dot>
          Failing
        </Badge>
        <span className="text-xs text-danger">
          Every delivery has failed since <TimeAgo iso={s.failing_since} />
        </span>
      </span>
    );
  }
  return (
    <Badge tone="success" dot>
      Active
    </Badge>
  );
}

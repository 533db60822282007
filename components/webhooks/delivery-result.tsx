"use client";

import { formatDuration } from "@/components/ui/format-duration";
import { Badge, type BadgeTone } from "@/components/ui";
import type { DeliveryAttempt } from "./types";

const STATUS_TONES: Record<string, BadgeTone> = { succeeded: "success", failed: "danger", pending: "warning" };

export function DeliveryStatus({ status }: { status: string }) {
  return (
    <Badge tone={STATUS_TONES[status] ?? "neutral"} dot>
      {status}
    </Badge>
  );
}

/** Longer bodies are cut here; the full body stays in the API's delivery record. */
const EXCERPT = 600;

/** One attempt: when, why, how it ended (status or error), how long, and what the endpoint said. */
export function AttemptLine({ attempt }: { attempt: DeliveryAttempt }) {
  const code = attempt.response?.status_code;
  const ok = code !== undefined && code >= 200 && code < 300;
  const body = attempt.response?.body ?? "";
  return (
    <li className="space-y-1 px-3 py-2 text-xs" data-testid="delivery-attempt">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-medium">Attempt {attempt.number}</span>
        <span className="text-muted">{attempt.trigger}</span>
        {code !== undefined ? (
          <Badge tone={ok ? "success" : "danger"}>HTTP {code}</Badge>
        ) : (
          <Badge tone="danger">No response</Badge>
        )}
        {attempt.duration_ms !== undefined && (
          <span className="tabular-nums text-muted">{formatDuration(attempt.duration_ms)}</span>
        )}
        <time className="text-muted" dateTime={attempt.started_at}>
          {new Date(attempt.started_at).toLocaleString("en-GB", { timeZone: "UTC" })} UTC
        </time>
      </div>
      {attempt.error && <p className="text-danger break-words">{attempt.error}</p>}
      {body && (
        <pre
          className="max-h-32 overflow-auto rounded-md bg-surface-muted px-2 py-1.5 font-mono whitespace-pre-wrap break-words"
          aria-label={`Response of attempt ${attempt.number}`}
        >
          {body.length > EXCERPT ? `${body.slice(0, EXCERPT)}…` : body}
        </pre>
      )}
    </li>
  );
}

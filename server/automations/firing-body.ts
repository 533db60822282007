import type { InvokeRequest } from "@/server/agent-runs";
import { fillTemplate } from "./payload-template";

interface Firing {
  automation: { target: Record<string, unknown>; input: Record<string, unknown> };
  delivery: { id: string; payload: unknown };
  firedAt: Date;
}

/** A firing's session: its own, one per delivery, so each run can be opened and continued alone. */
export const firingSessionId = (deliveryId: string) => `automation-${deliveryId}`;

/**
 * The invoke body a firing runs: the automation's references as stored (an environment is
 * resolved now, by the run), its messages with `{{ path }}` filled from the payload plus
 * `fired_at`. Pure.
 */
export function firingBody({ automation, delivery, firedAt }: Firing): InvokeRequest {
  const payload = { ...(delivery.payload as Record<string, unknown> | null), fired_at: firedAt.toISOString() };
  const messages = (automation.input.messages as { role: string; content: string }[]).map((message) => ({
    role: message.role,
    content: fillTemplate(message.content, payload),
  }));
  return {
    session_id: firingSessionId(delivery.id),
    references: automation.target.references as InvokeRequest["references"],
    data: { inputs: { messages } },
  };
}

import type { InvokeRequest } from "@/server/agent-runs";
import { fillTemplate, payloadFields } from "./payload-template";

interface Firing {
  automation: { target: Record<string, unknown>; input: Record<string, unknown> };
  firing: { id: string; payload: unknown };
  firedAt: Date;
}

/** A firing's session: its own, one per firing, so each run can be opened and continued alone. */
export const firingSessionId = (firingId: string) => `automation-${firingId}`;

const payloadOf = ({ firing, firedAt }: Firing): Record<string, unknown> => ({
  ...payloadFields(firing.payload),
  fired_at: firedAt.toISOString(),
});

/**
 * The invoke body a firing of an agent runs: the automation's references as stored (an
 * environment is resolved now, by the run), its messages with `{{ path }}` filled from the
 * payload plus `fired_at`. Pure.
 */
export function firingBody(firing: Firing): InvokeRequest {
  const payload = payloadOf(firing);
  const messages = (firing.automation.input.messages as { role: string; content: string }[]).map((message) => ({
    role: message.role,
    content: fillTemplate(message.content, payload),
  }));
  return {
    session_id: firingSessionId(firing.firing.id),
    references: firing.automation.target.references as InvokeRequest["references"],
    data: { inputs: { messages } },
  };
}

/** A prompt application's inputs for a firing: string values filled from the payload like messages are. Pure. */
export function firingInputs(firing: Firing): Record<string, string | number | boolean> {
  const payload = payloadOf(firing);
  const inputs = (firing.automation.input.inputs ?? {}) as Record<string, string | number | boolean>;
  return Object.fromEntries(
    Object.entries(inputs).map(([name, value]) => [
      name,
      typeof value === "string" ? fillTemplate(value, payload) : value,
    ]),
  );
}

import type { InvokeRequest } from "@/server/agent-runs";
import { eventTypeOf } from "./automation-input";
import { fillTemplate, payloadFields } from "./payload-template";
import { scheduleEventId } from "./schedule-pass";
import { resolveSelectorTemplate } from "./selector-template";

interface Firing {
  automation: {
    target: Record<string, unknown>;
    input: Record<string, unknown>;
    id?: string;
    name?: string;
    kind?: string;
    projectId?: string;
    eventTypes?: string[] | null;
    tags?: Record<string, unknown> | null;
    meta?: Record<string, unknown> | null;
    createdAt?: Date;
    updatedAt?: Date;
  };
  firing: { id: string; payload: unknown; eventKey?: string };
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
  return {
    session_id: firingSessionId(firing.firing.id),
    references: firing.automation.target.references as InvokeRequest["references"],
    data: { inputs: { messages: firingMessages(firing) } },
  };
}

/** An agent's messages for a firing: a selector template's result as one user message, or its own filled. */
function firingMessages(firing: Firing): { role: string; content: string }[] {
  const fields = selectedFields(firing);
  if (fields) return [{ role: "user", content: JSON.stringify(fields) }];
  const payload = payloadOf(firing);
  return (firing.automation.input.messages as { role: string; content: string }[]).map((message) => ({
    role: message.role,
    content: fillTemplate(message.content, payload),
  }));
}

/** A prompt application's inputs for a firing: string values filled from the payload like messages are. Pure. */
export function firingInputs(firing: Firing): Record<string, string | number | boolean> {
  const fields = selectedFields(firing);
  if (fields)
    return Object.fromEntries(
      Object.entries(fields).map(([name, value]) => [
        name,
        typeof value === "string" || typeof value === "number" || typeof value === "boolean"
          ? value
          : JSON.stringify(value),
      ]),
    );
  const payload = payloadOf(firing);
  const inputs = (firing.automation.input.inputs ?? {}) as Record<string, string | number | boolean>;
  return Object.fromEntries(
    Object.entries(inputs).map(([name, value]) => [
      name,
      typeof value === "string" ? fillTemplate(value, payload) : value,
    ]),
  );
}

/**
 * What a firing gives its target, as the reference implementation's delivery records it
 * (`data.inputs`): a selector template's result, else a prompt application's inputs or an
 * agent's filled messages. Pure.
 */
export function firingGivenInputs(firing: Firing, application: boolean): Record<string, unknown> {
  return selectedFields(firing) ?? (application ? firingInputs(firing) : { messages: firingMessages(firing) });
}

/** The input a selector template (`input.fields`) reads from this firing, or undefined without one. Pure. */
function selectedFields(firing: Firing): Record<string, unknown> | undefined {
  const template = firing.automation.input.fields;
  if (template === undefined) return undefined;
  const { automation, firedAt } = firing;
  const kind = automation.kind;
  const attributes = payloadFields(firing.firing.payload);
  // A schedule's event is the reference's: `<schedule id>:<tick>`, its attributes `{timestamp: tick}`.
  const tick = kind === "schedule" && typeof attributes.scheduled_at === "string" ? attributes.scheduled_at : undefined;
  const context = {
    event: {
      event_id: tick ? scheduleEventId(automation.id!, tick) : (firing.firing.eventKey ?? firing.firing.id),
      event_type: eventTypeOf(automation),
      timestamp: firedAt.toISOString(),
      created_at: firedAt.toISOString(),
      attributes: tick ? { ...attributes, timestamp: tick } : attributes,
    },
    subscription: {
      id: automation.id,
      name: automation.name,
      // Left out when unset, as the reference implementation's context leaves out its nulls.
      ...(automation.tags ? { tags: automation.tags } : {}),
      ...(automation.meta ? { meta: automation.meta } : {}),
      created_at: automation.createdAt?.toISOString(),
      updated_at: automation.updatedAt?.toISOString(),
    },
    scope: { project_id: automation.projectId },
  };
  return resolveSelectorTemplate(template, context);
}

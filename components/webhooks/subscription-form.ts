import { CHANGE_EVENTS, eventChoiceOf, type EventChoice } from "./event-groups";
import type { Subscription } from "./types";

/** The subscription form as typed: text fields, the chosen event types, headers one per line. */
export interface SubscriptionForm {
  name: string;
  description: string;
  url: string;
  /** Changes only, every event (reads included), or the `eventTypes` ticked. */
  eventChoice: EventChoice;
  eventTypes: string[];
  /** `Name: value`, one per line. */
  headers: string;
  authMode: "signature" | "authorization";
  /** Optional; blank generates one (create) or keeps the stored one (edit). */
  secret: string;
}

export const emptySubscriptionForm = (): SubscriptionForm => ({
  name: "",
  description: "",
  url: "https://",
  eventChoice: "changes",
  eventTypes: [],
  headers: "",
  authMode: "signature",
  secret: "",
});

export function formOf(subscription: Subscription): SubscriptionForm {
  return {
    name: subscription.name,
    description: subscription.description ?? "",
    url: subscription.data.url,
    eventChoice: eventChoiceOf(subscription.data.event_types),
    eventTypes: [...(subscription.data.event_types ?? [])],
    headers: Object.entries(subscription.data.headers ?? {})
      .map(([name, value]) => `${name}: ${value}`)
      .join("\n"),
    authMode: subscription.data.auth_mode === "authorization" ? "authorization" : "signature",
    secret: "",
  };
}

/** `Name: value` lines to a header map; a line without a colon is an error naming that line. */
export function parseHeaderLines(text: string): { headers: Record<string, string> } | { error: string } {
  const headers: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const colon = line.indexOf(":");
    if (colon <= 0) return { error: `Header line ${i + 1} needs the form “Name: value”.` };
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers };
}

/** The `subscription` the webhooks router takes, plus the secret when one was typed. */
export function subscriptionInputOf(form: SubscriptionForm) {
  const parsed = parseHeaderLines(form.headers);
  if ("error" in parsed) return parsed;
  if (form.eventChoice === "chosen" && form.eventTypes.length === 0)
    return { error: "Tick at least one event, or choose “Every event”." };
  const eventTypes = { changes: [...CHANGE_EVENTS], all: null, chosen: form.eventTypes }[form.eventChoice];
  return {
    subscription: {
      name: form.name.trim(),
      description: form.description.trim() || null,
      data: {
        url: form.url.trim(),
        event_types: eventTypes,
        headers: Object.keys(parsed.headers).length ? parsed.headers : null,
        auth_mode: form.authMode,
      },
    },
    ...(form.secret ? { secret: form.secret } : {}),
  };
}

"use client";

import { MessageField } from "./message-field";
import { SelectInput } from "@/components/editor/select-input";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AutomationWire } from "@/server/automations";
import { useTRPC } from "@/components/trpc";
import { Button, Notice, ShownOnceSecret, TextField } from "@/components/ui";

const EVENTS = [
  ["environments.revisions.committed", "a deploy (an environment revision committed)"],
  ["evaluations.runs.finished", "an evaluation run finished"],
  ["evaluations.runs.failed", "an evaluation run failed"],
  ["agents.runs.finished", "an agent run finished"],
  ["agents.runs.failed", "an agent run failed"],
  ["agents.runs.paused", "an agent run paused for a person"],
] as const;
const SCHEMES = [
  ["standard_webhooks", "Standard Webhooks / Svix"],
  ["github", "GitHub (X-Hub-Signature-256)"],
  ["stripe", "Stripe (Stripe-Signature)"],
] as const;

/** A new event subscription or inbound trigger; an inbound one's URL and secret are shown once, after saving. */
export function TriggerForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const agents = useQuery(trpc.agents.list.queryOptions({}));
  const [kind, setKind] = useState<"event" | "inbound">("event");
  const [name, setName] = useState("");
  const [agentId, setAgentId] = useState("");
  const [events, setEvents] = useState<string[]>(["environments.revisions.committed"]);
  const [scheme, setScheme] = useState<(typeof SCHEMES)[number][0]>("standard_webhooks");
  const [message, setMessage] = useState("");
  const [created, setCreated] = useState<AutomationWire | null>(null);
  const chosen = agentId || agents.data?.items[0]?.agent.id || "";
  const create = useMutation(
    trpc.automations.create.mutationOptions({
      onSuccess: async (automation) => {
        await queryClient.invalidateQueries({ queryKey: trpc.automations.list.queryKey() });
        if (automation.secret) setCreated(automation);
        else onDone();
      },
    }),
  );

  if (created?.secret)
    return (
      <div className="space-y-3 p-5">
        <ShownOnceSecret
          id="inbound-secret"
          label="Signing secret"
          value={created.secret}
          copyLabel="Copy secret"
          title="Inbound trigger created"
          warning="Configure the sender with it; requests it does not sign are refused."
        >
          <p className="text-xs text-muted">
            Senders POST to <code className="font-mono">{`${window.location.origin}${created.inbound_path}`}</code>
          </p>
        </ShownOnceSecret>
        <Button onClick={onDone}>Done</Button>
      </div>
    );

  const common = {
    name,
    is_active: true,
    references: { workflow: { id: chosen } },
    input: { messages: [{ role: "user" as const, content: message }] },
  };
  return (
    <form
      className="space-y-4 p-5"
      aria-label="New trigger"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate({
          automation:
            kind === "event" ? { kind, ...common, event_types: events } : { kind, ...common, signature_scheme: scheme },
        });
      }}
    >
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        Runs when
        <SelectInput value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
          <option value="event">Something happens in this service</option>
          <option value="inbound">An outside system posts a signed request</option>
        </SelectInput>
      </label>
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} required />
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        Agent
        <SelectInput value={chosen} onChange={(e) => setAgentId(e.target.value)}>
          {agents.data?.items.map((item) => (
            <option key={item.agent.id} value={item.agent.id}>
              {item.agent.name ?? item.agent.slug}
            </option>
          ))}
        </SelectInput>
      </label>
      {kind === "event" ? (
        <fieldset className="space-y-1 text-sm">
          <legend className="font-medium">Events</legend>
          {EVENTS.map(([type, label]) => (
            <label key={type} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(e) => setEvents(e.target.checked ? [...events, type] : events.filter((t) => t !== type))}
              />
              {label}
            </label>
          ))}
        </fieldset>
      ) : (
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Signature scheme
          <SelectInput value={scheme} onChange={(e) => setScheme(e.target.value as typeof scheme)}>
            {SCHEMES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectInput>
        </label>
      )}
      <MessageField
        value={message}
        onChange={setMessage}
        hint={"{{ path }} is filled from the payload: an event's attributes ({{ event_type }}), an inbound JSON body."}
      />
      {create.error && <Notice tone="danger">{create.error.message}</Notice>}
      <div className="flex gap-2">
        <Button
          type="submit"
          variant="primary"
          disabled={create.isPending || !chosen || (kind === "event" && !events.length)}
        >
          Create trigger
        </Button>
        <Button type="button" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

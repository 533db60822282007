"use client";

import { zoneTime } from "./zone-time";
import { MessageField } from "./message-field";
import { SelectInput } from "@/components/editor/select-input";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AutomationWire } from "@/server/automations";
import { useTRPC } from "@/components/trpc";
import { Button, Notice, TextField } from "@/components/ui";

const OVERLAPS = [
  ["skip", "Skip the new run"],
  ["queue_one", "Queue one run"],
  ["cancel_previous", "Cancel the previous run"],
] as const;

const ENVIRONMENTS = ["production", "staging", "development"] as const;

interface AgentItem {
  agent: { id: string; slug: string };
  latest?: { revisionId: string; version: string };
}

function agentOf(editing: AutomationWire | undefined): string {
  return ((editing?.references.workflow as { id?: string } | undefined)?.id ?? "") as string;
}

/** The "What runs" choice a saved schedule's references stand for. */
function runsOf(editing: AutomationWire | undefined): string {
  const refs = editing?.references as Record<string, { id?: string; slug?: string } | string | undefined> | undefined;
  const environment = refs?.environment as { slug?: string } | undefined;
  if (environment?.slug) return `env:${environment.slug}`;
  const revision = refs?.workflow_revision as { id?: string } | undefined;
  return revision?.id ? `revision:${revision.id}` : "latest";
}

/** References for the choice: the agent, a pinned revision, or an environment resolved when it fires. */
function referencesFor(runs: string, agentId: string, item: AgentItem | undefined): Record<string, unknown> {
  if (runs === "pinned" && item?.latest) return { workflow_revision: { id: item.latest.revisionId } };
  if (runs.startsWith("revision:")) return { workflow_revision: { id: runs.slice("revision:".length) } };
  if (runs.startsWith("env:") && item)
    return { environment: { slug: runs.slice("env:".length) }, key: `${item.agent.slug}.revision` };
  return { workflow: { id: agentId } };
}

/** Create or edit a schedule: the cron's words and next five fire times are shown before saving. */
export function ScheduleForm({ editing, onDone }: { editing?: AutomationWire; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const agents = useQuery(trpc.agents.list.queryOptions({}));
  const [name, setName] = useState(editing?.name ?? "");
  const [cron, setCron] = useState(editing?.cron ?? "0 9 * * 1-5");
  const [timezone, setTimezone] = useState(editing?.timezone ?? "UTC");
  const [overlap, setOverlap] = useState<(typeof OVERLAPS)[number][0]>(editing?.overlap_policy ?? "skip");
  const [agentId, setAgentId] = useState(agentOf(editing));
  const [runs, setRuns] = useState(runsOf(editing));
  const [message, setMessage] = useState(
    ((editing?.input.messages as { content: string }[] | undefined)?.[0]?.content ?? "") as string,
  );
  const preview = useQuery({ ...trpc.automations.preview.queryOptions({ cron, timezone }), retry: false });
  // A saved environment reference names its agent by the key (`<slug>.revision`).
  const keyed = agents.data?.items.find((item) => `${item.agent.slug}.revision` === editing?.references.key);
  const chosen = agentId || keyed?.agent.id || agents.data?.items[0]?.agent.id || "";
  const chosenItem = agents.data?.items.find((item) => item.agent.id === chosen);
  const automation = {
    kind: "schedule" as const,
    name,
    cron,
    timezone,
    overlap_policy: overlap,
    catch_up_seconds: editing?.catch_up_seconds ?? 900,
    is_active: editing?.is_active ?? true,
    references: referencesFor(runs, chosen, chosenItem),
    input: { messages: [{ role: "user" as const, content: message }] },
  };
  const save = useMutation(
    (editing ? trpc.automations.update : trpc.automations.create).mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.automations.list.queryKey() });
        onDone();
      },
    }) as never,
  ) as unknown as { mutate: (input: unknown) => void; isPending: boolean; error: { message: string } | null };

  return (
    <form
      className="space-y-4 p-5"
      aria-label={editing ? "Edit schedule" : "New schedule"}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(editing ? { id: editing.id, automation } : { automation });
      }}
    >
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
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        What runs
        <SelectInput value={runs} onChange={(e) => setRuns(e.target.value)}>
          <option value="latest">The latest revision at each firing</option>
          {chosenItem?.latest && (
            <option value="pinned">Pinned: version {chosenItem.latest.version} (as it is now)</option>
          )}
          {editing && runs.startsWith("revision:") && <option value={runs}>Pinned: the revision saved before</option>}
          {ENVIRONMENTS.map((env) => (
            <option key={env} value={`env:${env}`}>
              What is deployed to {env} when it fires
            </option>
          ))}
        </SelectInput>
      </label>
      <div className="grid grid-cols-2 gap-3">
        <TextField label="Cron" value={cron} onChange={(e) => setCron(e.target.value)} className="font-mono" />
        <TextField label="Time zone" value={timezone} onChange={(e) => setTimezone(e.target.value)} />
      </div>
      <div aria-live="polite" data-testid="cron-preview" className="rounded-md bg-surface-2 p-3 text-sm">
        {preview.isError ? (
          <span className="text-danger">{preview.error.message}</span>
        ) : preview.data ? (
          <>
            <p className="font-medium">{preview.data.description}</p>
            <ol className="mt-1 space-y-0.5 text-xs text-muted tabular-nums">
              {preview.data.next_fire_times.map((at) => (
                <li key={at}>{zoneTime(at, timezone)}</li>
              ))}
            </ol>
          </>
        ) : (
          "…"
        )}
      </div>
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        When the previous run is still running
        <SelectInput value={overlap} onChange={(e) => setOverlap(e.target.value as typeof overlap)}>
          {OVERLAPS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectInput>
      </label>
      <MessageField value={message} onChange={setMessage} hint={"{{ scheduled_at }} is filled with the fire time."} />
      {save.error && <Notice tone="danger">{save.error.message}</Notice>}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={save.isPending || !chosen}>
          {editing ? "Save schedule" : "Create schedule"}
        </Button>
        <Button type="button" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

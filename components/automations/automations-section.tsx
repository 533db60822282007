"use client";

import { zoneTime } from "./zone-time";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { AutomationWire } from "@/server/automations";
import { chatPath } from "@/components/chat/chat-paths";
import { useCanEdit } from "@/components/shell/account-context";
import { tracePath } from "@/components/traces/trace-paths";
import { useTRPC } from "@/components/trpc";
import { Badge, Button, Card, EmptyState, Notice, PlusIcon, QueryView, Skeleton, TimeAgo } from "@/components/ui";
import { ScheduleForm } from "./schedule-form";
import { TriggerForm } from "./trigger-form";

/** The project's automations: next and last run, create and edit, Test, pause, and each one's deliveries. */
export function AutomationsSection() {
  const trpc = useTRPC();
  const list = useQuery(trpc.automations.list.queryOptions());
  const canEdit = useCanEdit();
  const [form, setForm] = useState<{ editing?: AutomationWire; trigger?: boolean } | null>(null);
  return (
    <Card
      title="Automations"
      labelledBy="automations-title"
      description="Agents that run on a schedule, on this service's events, or when a signed request arrives."
      actions={
        <div className="flex gap-2">
          <Button disabled={!canEdit} onClick={() => setForm({ trigger: true })}>
            New trigger
          </Button>
          <Button variant="primary" disabled={!canEdit} onClick={() => setForm({})}>
            <PlusIcon className="size-3.5" />
            New schedule
          </Button>
        </div>
      }
    >
      {form?.trigger && <TriggerForm onDone={() => setForm(null)} />}
      {form && !form.trigger && (
        <ScheduleForm key={form.editing?.id ?? "new"} editing={form.editing} onDone={() => setForm(null)} />
      )}
      <QueryView
        query={list}
        pending={
          <div className="p-5">
            <Skeleton className="h-12" />
          </div>
        }
        errorTitle="Could not load automations"
        errorClassName="p-5"
        isEmpty={(rows) => rows.length === 0}
        empty={<EmptyState title="No automations yet" description="Create a schedule to run an agent at set times." />}
      >
        {(rows) => (
          <ul className="divide-y divide-border">
            {rows.map((automation) => (
              <AutomationRow
                key={automation.id}
                automation={automation}
                onEdit={() => setForm({ editing: automation })}
              />
            ))}
          </ul>
        )}
      </QueryView>
    </Card>
  );
}

function AutomationRow({ automation, onEdit }: { automation: AutomationWire; onEdit: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCanEdit();
  const [open, setOpen] = useState(false);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.automations.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.automations.deliveries.queryKey({ id: automation.id }) }),
    ]);
  const test = useMutation(trpc.automations.test.mutationOptions({ onSuccess: () => (setOpen(true), refresh()) }));
  const toggle = useMutation(trpc.automations.setActive.mutationOptions({ onSuccess: refresh }));
  const last = automation.last_delivery;
  return (
    <li className="space-y-2 px-5 py-4" aria-label={`Automation ${automation.name}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{automation.name}</span>
        <Badge>{automation.kind}</Badge>
        {automation.test && <Badge tone="accent">Test subscription</Badge>}
        {!automation.is_active && <Badge tone="warning">Paused</Badge>}
        <div className="ml-auto flex gap-2">
          <Button size="sm" disabled={!canEdit || test.isPending} onClick={() => test.mutate({ id: automation.id })}>
            Test
          </Button>
          <Button
            size="sm"
            disabled={!canEdit}
            onClick={() => toggle.mutate({ id: automation.id, active: !automation.is_active })}
          >
            {automation.is_active ? "Pause" : "Resume"}
          </Button>
          {automation.kind === "schedule" && (
            <Button size="sm" disabled={!canEdit} onClick={onEdit}>
              Edit
            </Button>
          )}
          <Button size="sm" onClick={() => setOpen(!open)} aria-expanded={open}>
            Deliveries
          </Button>
        </div>
      </div>
      <dl className="flex flex-wrap gap-x-4 text-xs text-muted">
        {automation.description_of_schedule && <dd>{automation.description_of_schedule}</dd>}
        {automation.event_types && <dd>On {automation.event_types.join(", ")}</dd>}
        {automation.inbound_path && (
          <dd>
            POST <code className="font-mono">{automation.inbound_path}</code> ({automation.signature_scheme})
          </dd>
        )}
        {automation.test ? (
          // Its references may be empty and its firings never run: say so instead of "Next run".
          <dd>Test mode: each event is captured, no run starts</dd>
        ) : (
          <dd>Next run: {automation.next_fire_at ? <TimeAgo iso={automation.next_fire_at} /> : "—"}</dd>
        )}
        <dd>
          {automation.test ? "Last capture" : "Last run"}:{" "}
          {last ? <TimeAgo iso={last.fired_at ?? last.created_at} /> : "—"}
          {last && ` (${last.status})`}
        </dd>
      </dl>
      {test.error && <Notice tone="danger">{test.error.message}</Notice>}
      {open && <Deliveries id={automation.id} timezone={automation.timezone ?? "UTC"} />}
    </li>
  );
}

function Deliveries({ id, timezone }: { id: string; timezone: string }) {
  const trpc = useTRPC();
  const deliveries = useQuery({ ...trpc.automations.deliveries.queryOptions({ id }), refetchInterval: 2_000 });
  if (!deliveries.data) return <Skeleton className="h-8" />;
  if (deliveries.data.length === 0) return <p className="text-xs text-muted">No deliveries yet.</p>;
  return (
    <ul className="space-y-1 text-xs" aria-label="Deliveries">
      {deliveries.data.map((d) => (
        <li key={d.id} className="flex flex-wrap items-center gap-2">
          <Badge tone={d.status === "captured" ? "accent" : "neutral"}>{d.status}</Badge>
          {d.status === "captured" && <span className="text-muted">nothing run (test subscription)</span>}
          {d.run && <span>run {d.run.status}</span>}
          <span className="text-muted">
            {d.scheduled_at ? `scheduled ${zoneTime(d.scheduled_at, timezone)} · ` : ""}
            {d.fired_at ? `fired ${zoneTime(d.fired_at, timezone)}` : ""}
          </span>
          {d.error && <span className="text-danger">{d.error}</span>}
          {d.trace_id && d.run?.agent_id && d.run.variant_id && (
            <Link
              className="text-accent hover:underline"
              href={chatPath(d.run.agent_id, d.run.variant_id, { trace: d.trace_id, revision: d.run.revision_id })}
            >
              Open session
            </Link>
          )}
          {d.trace_id && (
            <Link className="text-accent hover:underline" href={tracePath(d.trace_id)}>
              Trace
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { RetentionSettings } from "@/server/retention";
import { useAccount } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Button, Card, Notice, Skeleton, TextField, useToast } from "@/components/ui";

const FIELDS: { key: keyof RetentionSettings; label: string; hint: string }[] = [
  { key: "traces_days", label: "Traces", hint: "Spans, by their start time" },
  { key: "runs_days", label: "Runs", hint: "Agent runs and their event logs, by start" },
  { key: "chat_sessions_days", label: "Chat sessions", hint: "By their last message" },
  { key: "evaluation_results_days", label: "Evaluation results", hint: "Of finished evaluations; scores stay" },
  { key: "events_days", label: "Events", hint: "And their settled webhook deliveries" },
];

/** Days as typed: blank keeps forever, else a whole number from 1. */
function parseDays(text: string): number | null | "invalid" {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  return /^[1-9]\d{0,4}$/.test(trimmed) ? Number(trimmed) : "invalid";
}

/**
 * How long the project keeps each kind of data (owners change it; the workers delete what is past
 * its age), and the deletion of one user's data, for a GDPR request.
 */
export function RetentionSection() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.retention.settings.queryOptions());
  const isOwner = useAccount().current?.role === "owner";
  return (
    <Card
      title="Data retention"
      labelledBy="retention-title"
      description="How many days each kind of data is kept; blank keeps it forever. Background workers delete what is past its age, a thousand rows at a time. Changes are audited."
    >
      <div className="flex flex-col gap-5 p-5" data-testid="retention">
        {settings.isPending ? (
          <Skeleton className="h-24 w-full max-w-2xl" />
        ) : settings.isError ? (
          <Notice tone="danger">{settings.error.message}</Notice>
        ) : (
          <RetentionForm key={JSON.stringify(settings.data)} saved={settings.data} editable={isOwner} />
        )}
        {isOwner && <DeleteUserData />}
      </div>
    </Card>
  );
}

function RetentionForm({ saved, editable }: { saved: RetentionSettings; editable: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [text, setText] = useState(() =>
    Object.fromEntries(FIELDS.map((f) => [f.key, saved[f.key] === null ? "" : String(saved[f.key])])),
  );
  const save = useMutation(
    trpc.retention.set.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.retention.pathKey() });
        toast({ title: "Retention saved" });
      },
    }),
  );
  const parsed = Object.fromEntries(FIELDS.map((f) => [f.key, parseDays(text[f.key])]));
  const invalid = Object.values(parsed).includes("invalid");

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!invalid) save.mutate(parsed as RetentionSettings);
  }

  return (
    <form aria-label="Data retention" onSubmit={submit} className="flex max-w-3xl flex-col gap-4">
      <div className="grid gap-3 sm:grid-cols-3">
        {FIELDS.map((f) => (
          <TextField
            key={f.key}
            name={f.key}
            label={`${f.label} (days)`}
            inputMode="numeric"
            placeholder="Forever"
            disabled={!editable}
            value={text[f.key]}
            onChange={(e) => setText({ ...text, [f.key]: e.target.value })}
            hint={f.hint}
            error={parsed[f.key] === "invalid" ? "Whole days from 1, or blank for forever" : undefined}
          />
        ))}
      </div>
      {save.error && <Notice tone="danger">{save.error.message}</Notice>}
      {editable && (
        <div>
          <Button type="submit" variant="primary" loading={save.isPending} disabled={invalid}>
            Save retention
          </Button>
        </div>
      )}
    </form>
  );
}

/** A user's data everywhere it was stored (README of server/retention says what that covers). */
function DeleteUserData() {
  const trpc = useTRPC();
  const [userId, setUserId] = useState("");
  const [confirming, setConfirming] = useState(false);
  const erase = useMutation(trpc.retention.deleteUser.mutationOptions({ onSettled: () => setConfirming(false) }));
  const total = erase.data ? Object.values(erase.data.deleted).reduce((a, b) => a + b, 0) : 0;
  return (
    <form
      aria-label="Delete a user's data"
      className="flex max-w-3xl flex-col gap-2 border-t border-line pt-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (confirming) erase.mutate({ userId: userId.trim() });
        else setConfirming(true);
      }}
    >
      <TextField
        label="Delete a user's data"
        name="user_id"
        value={userId}
        onChange={(e) => {
          setUserId(e.target.value);
          setConfirming(false);
        }}
        hint="A member's user id or the user id your application sends on its traces: their chat sessions, runs and traces are deleted everywhere. This cannot be undone."
      />
      <div className="flex items-center gap-3">
        <Button
          type="submit"
          size="sm"
          variant={confirming ? "danger" : "secondary"}
          disabled={!userId.trim()}
          loading={erase.isPending}
        >
          {confirming ? "Delete for good" : "Delete…"}
        </Button>
        {erase.data && (
          <span className="text-sm text-muted" role="status">
            Deleted {total} rows for {erase.data.target.id}.
          </span>
        )}
      </div>
      {erase.error && <Notice tone="danger">{erase.error.message}</Notice>}
    </form>
  );
}

"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { useTRPC } from "@/components/trpc";
import { Button, Dialog, Notice, TextField } from "@/components/ui";
import { AttemptLine, DeliveryStatus } from "./delivery-result";
import { EVENT_GROUPS, type EventChoice } from "./event-groups";
import { SecretOnce } from "./secret-once";
import { emptySubscriptionForm, formOf, subscriptionInputOf, type SubscriptionForm } from "./subscription-form";
import type { Subscription } from "./types";

const FORM_ID = "subscription-form";

const EVENT_CHOICES: Array<[EventChoice, string]> = [
  ["changes", "Changes: commits, deploys and tests"],
  ["all", "Every event, reads included"],
  ["chosen", "Only the events I choose"],
];

/** Creates a subscription (then shows its secret once) or edits one; "Send test" tries the form as it is, unsaved. */
export function SubscriptionDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  editing: Subscription | null;
  onClose: () => void;
}) {
  return open ? <SubscriptionDialogBody editing={editing} onClose={onClose} /> : null;
}

function SubscriptionDialogBody({ editing, onClose }: { editing: Subscription | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SubscriptionForm>(() => (editing ? formOf(editing) : emptySubscriptionForm()));
  const [formError, setFormError] = useState<string | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const create = useMutation(trpc.webhooks.create.mutationOptions({ onSuccess: invalidate }));
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({ onSuccess: async () => (await invalidate(), onClose()) }),
  );
  const test = useMutation(trpc.webhooks.test.mutationOptions());
  const saving = create.isPending || update.isPending;
  const testResult = useRef<HTMLDivElement>(null);
  // The result sits under the fields: bring it into view when it arrives.
  useEffect(() => {
    if (test.data || test.error) testResult.current?.scrollIntoView({ block: "nearest" });
  }, [test.data, test.error]);
  const error = formError ?? (create.error ?? update.error)?.message;
  const set = (patch: Partial<SubscriptionForm>) => setForm((f) => ({ ...f, ...patch }));

  function input() {
    const parsed = subscriptionInputOf(form);
    if ("error" in parsed) {
      setFormError(parsed.error);
      return null;
    }
    setFormError(null);
    return parsed;
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = input();
    if (!parsed) return;
    if (editing) update.mutate({ id: editing.id, ...parsed });
    else create.mutate(parsed);
  }
  function sendTest() {
    const parsed = input();
    if (parsed) test.mutate(parsed);
  }

  if (create.data?.secret) {
    return (
      <Dialog
        open
        onClose={onClose}
        title={`${create.data.name} is subscribed`}
        footer={
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        }
      >
        <SecretOnce secret={create.data.secret} authMode={create.data.data.auth_mode} />
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      size="lg"
      onClose={() => !saving && onClose()}
      title={editing ? `Edit ${editing.name}` : "New webhook"}
      description="An HTTPS endpoint the service calls, signed, when events happen in this project."
      footer={
        <>
          <Button onClick={sendTest} loading={test.isPending} disabled={saving} className="mr-auto">
            Send test
          </Button>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={FORM_ID} loading={saving}>
            {editing ? "Save" : "Create webhook"}
          </Button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={submit} className="flex max-h-[60vh] flex-col gap-4 overflow-y-auto pb-1">
        <TextField
          label="Name"
          value={form.name}
          onChange={(e) => set({ name: e.target.value })}
          data-autofocus
          required
          maxLength={256}
        />
        <TextField
          label="Endpoint URL"
          type="url"
          value={form.url}
          onChange={(e) => set({ url: e.target.value })}
          hint="HTTPS only."
          required
        />
        <TextField
          label="Description (optional)"
          value={form.description}
          onChange={(e) => set({ description: e.target.value })}
        />
        <fieldset className="flex flex-col gap-1.5">
          <legend className="text-sm font-medium">Events</legend>
          {EVENT_CHOICES.map(([value, label]) => (
            <label key={value} className="flex items-center gap-1.5 text-sm">
              <input
                type="radio"
                name="event-choice"
                value={value}
                checked={form.eventChoice === value}
                onChange={() => set({ eventChoice: value })}
              />
              {label}
            </label>
          ))}
          {form.eventChoice === "chosen" && (
            <div
              className="flex max-h-56 flex-col gap-3 overflow-y-auto rounded-md border border-line p-2"
              data-testid="event-picker"
            >
              {EVENT_GROUPS.map((group) => (
                <fieldset key={group.name} className="flex flex-col gap-1">
                  <legend className="text-xs font-semibold">{group.label}</legend>
                  {group.events.map((event) => (
                    <label
                      key={event.type}
                      className="flex flex-wrap items-center gap-x-1.5 text-xs"
                      title={event.type}
                    >
                      <input
                        type="checkbox"
                        checked={form.eventTypes.includes(event.type)}
                        onChange={(e) =>
                          set({
                            eventTypes: e.target.checked
                              ? [...form.eventTypes, event.type]
                              : form.eventTypes.filter((t) => t !== event.type),
                          })
                        }
                      />
                      <span className={event.read ? "text-muted" : undefined}>{event.label}</span>
                      <code className="font-mono text-[11px] break-all text-muted">{event.type}</code>
                    </label>
                  ))}
                </fieldset>
              ))}
            </div>
          )}
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="webhook-auth-mode" className="text-sm font-medium">
            Authentication
          </label>
          <SelectInput
            id="webhook-auth-mode"
            value={form.authMode}
            onChange={(e) => set({ authMode: e.target.value as SubscriptionForm["authMode"] })}
          >
            <option value="signature">Signature header (HMAC of the body with the secret)</option>
            <option value="authorization">Bearer token (the secret as Authorization)</option>
          </SelectInput>
        </div>
        <TextField
          label="Secret (optional)"
          type="password"
          autoComplete="off"
          value={form.secret}
          onChange={(e) => set({ secret: e.target.value })}
          hint={
            editing ? "Blank keeps the stored secret." : "Blank generates one, shown once after you create the webhook."
          }
          minLength={form.secret ? 16 : undefined}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor="webhook-headers" className="text-sm font-medium">
            Extra headers (optional)
          </label>
          <textarea
            id="webhook-headers"
            value={form.headers}
            onChange={(e) => set({ headers: e.target.value })}
            rows={2}
            placeholder="X-Team: agents"
            aria-describedby="webhook-headers-hint"
            className="rounded-md border border-line bg-surface px-2.5 py-1.5 font-mono text-sm"
          />
          <p id="webhook-headers-hint" className="text-xs text-muted">
            One “Name: value” per line.
          </p>
        </div>
        {error && (
          <Notice tone="danger" title="Not saved">
            {error}
          </Notice>
        )}
        {(test.error || test.data) && (
          <div ref={testResult}>
            {test.error && (
              <Notice tone="danger" title="Test not sent">
                {test.error.message}
              </Notice>
            )}
            {test.data && (
              <div className="rounded-lg border border-line" data-testid="draft-test-result">
                <div className="flex items-center gap-2 border-b border-line px-3 py-2 text-sm">
                  Test delivery <DeliveryStatus status={test.data.status} />
                </div>
                <ul>
                  {test.data.attempts?.map((a) => (
                    <AttemptLine key={a.number} attempt={a} />
                  ))}
                </ul>
              </div>
            )}
          </div>
        )}
      </form>
    </Dialog>
  );
}

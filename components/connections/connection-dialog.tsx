"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { useTRPC } from "@/components/trpc";
import { FormDialog, TextField } from "@/components/ui";
import { PROVIDERS } from "@/shared/providers";
import { emptyConnectionForm, formOf, secretInputOf, type ConnectionForm } from "./connection-form";
import type { Connection } from "./types";

/** Adds a connection, or edits one (`editing`); the key is write-only: blank keeps the stored one. */
export function ConnectionDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  editing: Connection | null;
  onClose: () => void;
}) {
  return open ? <ConnectionDialogBody editing={editing} onClose={onClose} /> : null;
}

function ConnectionDialogBody({ editing, onClose }: { editing: Connection | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ConnectionForm>(() => (editing ? formOf(editing) : emptyConnectionForm("openai")));
  const done = {
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.connections.list.queryKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.connections.providers.queryKey() }),
      ]);
      onClose();
    },
  };
  const create = useMutation(trpc.connections.create.mutationOptions(done));
  const update = useMutation(trpc.connections.update.mutationOptions(done));
  const saving = create.isPending || update.isPending;
  const error = create.error ?? update.error;
  const set = (patch: Partial<ConnectionForm>) => setForm((f) => ({ ...f, ...patch }));

  function submit() {
    const input = secretInputOf(form);
    if (editing) update.mutate({ id: editing.id, secret: input });
    else create.mutate(input);
  }

  const custom = form.kind === "custom_provider";
  return (
    <FormDialog
      onClose={onClose}
      title={editing ? `Edit ${editing.header.name}` : "Add connection"}
      description="Keys are encrypted at rest and never shown again; only their last four characters are."
      onSubmit={submit}
      submitLabel={editing ? "Save" : "Add connection"}
      busy={saving}
      error={error}
      errorTitle="Not saved"
    >
      {!editing && (
        <fieldset className="flex gap-4 text-sm">
          <legend className="sr-only">Kind</legend>
          <label className="flex items-center gap-1.5">
            <input type="radio" name="kind" checked={!custom} onChange={() => set({ kind: "provider_key" })} />
            Provider key
          </label>
          <label className="flex items-center gap-1.5">
            <input type="radio" name="kind" checked={custom} onChange={() => set({ kind: "custom_provider" })} />
            Custom OpenAI-compatible provider
          </label>
        </fieldset>
      )}
      <TextField
        label="Name"
        value={form.name}
        onChange={(e) => set({ name: e.target.value })}
        data-autofocus
        required
      />
      {!custom && (
        <div className="flex flex-col gap-1.5">
          <label htmlFor="connection-provider" className="text-sm font-medium">
            Provider
          </label>
          <SelectInput
            id="connection-provider"
            value={form.provider}
            onChange={(e) => set({ provider: e.target.value })}
            disabled={Boolean(editing)}
          >
            {Object.entries(PROVIDERS).map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </SelectInput>
        </div>
      )}
      <TextField
        label={custom ? "Base URL" : "Base URL (optional)"}
        value={form.url}
        onChange={(e) => set({ url: e.target.value })}
        placeholder={custom ? "http://localhost:11434/v1" : "The provider's own API"}
        hint={custom ? "An OpenAI-compatible API." : "Only for a gateway or your own deployment of this provider."}
        required={custom}
      />
      <TextField
        label={custom ? "API key (optional)" : "API key"}
        type="password"
        autoComplete="off"
        value={form.key}
        onChange={(e) => set({ key: e.target.value })}
        placeholder={editing ? "Leave blank to keep the stored key" : undefined}
        required={!custom && !editing}
      />
      {custom && (
        <div className="flex flex-col gap-1.5">
          <label htmlFor="connection-models" className="text-sm font-medium">
            Models
          </label>
          <textarea
            id="connection-models"
            value={form.models}
            onChange={(e) => set({ models: e.target.value })}
            rows={3}
            placeholder={"llama3.1\nqwen2.5"}
            className="rounded-md border border-line bg-surface px-2.5 py-1.5 font-mono text-sm"
            aria-describedby="connection-models-hint"
          />
          <p id="connection-models-hint" className="text-xs text-muted">
            One model id per line. An agent naming one of them runs on this provider.
          </p>
        </div>
      )}
    </FormDialog>
  );
}

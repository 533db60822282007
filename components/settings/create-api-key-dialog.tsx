"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc";
import { Button, Dialog, FormDialog, TextField } from "@/components/ui";
import { SelectInput } from "@/components/editor/select-input";
import { EXPIRY_CHOICES, SCOPE_LABELS } from "./api-key-scopes";
import { NewKeySecret } from "./new-key-secret";

/** Asks for an optional name, creates the key, then shows its secret once. */
export function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [scope, setScope] = useState("full");
  const [expiryDays, setExpiryDays] = useState("");
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() }),
    }),
  );

  function close() {
    if (create.isPending) return;
    // Forget the secret: once this dialog closes it is gone for good.
    create.reset();
    setName("");
    setScope("full");
    setExpiryDays("");
    onClose();
  }

  function submit() {
    const trimmed = name.trim();
    const expiresAt = expiryDays === "" ? undefined : new Date(Date.now() + Number(expiryDays) * 86_400_000);
    create.mutate({
      name: trimmed === "" ? undefined : trimmed,
      scopes: [scope as "full" | "read" | "run" | "ingest"],
      expires_at: expiresAt?.toISOString(),
    });
  }

  if (create.data) {
    return (
      <Dialog
        open={open}
        onClose={close}
        title="API key created"
        size="lg"
        footer={
          <Button variant="primary" onClick={close}>
            Done
          </Button>
        }
      >
        <NewKeySecret apiKey={create.data} />
      </Dialog>
    );
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      title="Create API key"
      description="The key acts as you in this project. Its secret is shown once, right after creation."
      onSubmit={submit}
      submitLabel="Create key"
      busy={create.isPending}
      error={create.error}
      errorTitle="Could not create the key"
    >
      <TextField
        label="Name"
        name="name"
        placeholder="e.g. CI pipeline"
        maxLength={100}
        autoComplete="off"
        hint="Optional. Helps you tell keys apart later."
        value={name}
        onChange={(event) => setName(event.target.value)}
        data-autofocus
      />
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        Scope
        <SelectInput name="scope" value={scope} onChange={(event) => setScope(event.target.value)}>
          {Object.entries(SCOPE_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectInput>
      </label>
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        Expires
        <SelectInput name="expires" value={expiryDays} onChange={(event) => setExpiryDays(event.target.value)}>
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </SelectInput>
      </label>
    </FormDialog>
  );
}

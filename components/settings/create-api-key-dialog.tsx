"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc";
import { Button, Dialog, FormDialogFooter, Notice, TextField } from "@/components/ui";
import { NewKeySecret } from "./new-key-secret";

const FORM_ID = "create-api-key-form";

/** Asks for an optional name, creates the key, then shows its secret once. */
export function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
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
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    create.mutate({ name: trimmed === "" ? undefined : trimmed });
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
    <Dialog
      open={open}
      onClose={close}
      title="Create API key"
      description="The key acts as you in this project. Its secret is shown once, right after creation."
      footer={<FormDialogFooter formId={FORM_ID} busy={create.isPending} onCancel={close} submitLabel="Create key" />}
    >
      <form id={FORM_ID} onSubmit={submit} className="flex flex-col gap-4">
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
        {create.error && (
          <Notice tone="danger" title="Could not create the key">
            {create.error.message}
          </Notice>
        )}
      </form>
    </Dialog>
  );
}

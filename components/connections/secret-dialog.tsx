"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc";
import { FormDialog, TextField } from "@/components/ui";
import type { PlainSecret } from "./types";

/** Adds a plain secret, or rotates one's value (`rotating`); the value is write-only. */
export function SecretDialog({
  open,
  rotating,
  onClose,
}: {
  open: boolean;
  rotating: PlainSecret | null;
  onClose: () => void;
}) {
  return open ? <SecretDialogBody rotating={rotating} onClose={onClose} /> : null;
}

function SecretDialogBody({ rotating, onClose }: { rotating: PlainSecret | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(rotating?.header.name ?? "");
  const [value, setValue] = useState("");
  // Readable while it is typed, masked once the field is left.
  const [typing, setTyping] = useState(false);
  const done = {
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: trpc.connections.secrets.queryKey() });
      onClose();
    },
  };
  const create = useMutation(trpc.connections.create.mutationOptions(done));
  const update = useMutation(trpc.connections.update.mutationOptions(done));
  const saving = create.isPending || update.isPending;
  const error = create.error ?? update.error;

  function submit() {
    const header = {
      name: rotating ? rotating.header.name : name.trim(),
      description: rotating?.header.description ?? null,
    };
    const input = { header, secret: { kind: "secret" as const, data: { value } } };
    if (rotating) update.mutate({ id: rotating.id, secret: input });
    else create.mutate(input);
  }

  return (
    <FormDialog
      onClose={onClose}
      title={rotating ? `Rotate ${rotating.header.name}` : "Add secret"}
      description="Encrypted at rest and never shown again; only the last four characters of a long value are."
      onSubmit={submit}
      submitLabel={rotating ? "Rotate" : "Add secret"}
      busy={saving}
      error={error}
      errorTitle="Not saved"
    >
      {!rotating && (
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          hint="Tools name it by this, or by its slug."
          data-autofocus
          required
        />
      )}
      <TextField
        label={rotating ? "New value" : "Value"}
        type={typing ? "text" : "password"}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onFocus={() => setTyping(true)}
        onBlur={() => setTyping(false)}
        data-autofocus={rotating ? true : undefined}
        required
      />
    </FormDialog>
  );
}

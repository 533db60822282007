"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/trpc";
import { FormDialog, TextField } from "@/components/ui";
import { ImportSource } from "./import-source";
import type { ParsedTable } from "./table-files";
import { committedRows } from "./testset-table";
import { testsetPaths } from "./testset-paths";

/** A name and, optionally, a CSV or JSON file whose rows become version 1 (previewed first). */
export function CreateTestsetDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState("");
  const [touched, setTouched] = useState(false);
  const [parsed, setParsed] = useState<ParsedTable | null>(null);
  const create = useMutation(
    trpc.testsets.create.mutationOptions({
      onSuccess: async (created) => {
        await queryClient.invalidateQueries({ queryKey: trpc.testsets.list.pathKey() });
        router.push(testsetPaths.editor(created.testset.id));
        reset();
        onClose();
      },
    }),
  );

  function reset() {
    setName("");
    setTouched(false);
    setParsed(null);
    create.reset();
  }

  function close() {
    if (create.isPending) return;
    reset();
    onClose();
  }

  function submit() {
    setTouched(true);
    if (name.trim() === "" || (parsed && !parsed.ok)) return;
    const rows = parsed?.ok ? committedRows(parsed.table) : [];
    create.mutate({
      name: name.trim(),
      testcases: rows,
      columns: parsed?.ok ? parsed.table.columns : undefined,
      message: rows.length ? `Import ${rows.length} ${rows.length === 1 ? "row" : "rows"}` : undefined,
    });
  }

  const rows = parsed?.ok ? parsed.table.rows.length : 0;
  return (
    <FormDialog
      open={open}
      onClose={close}
      size="lg"
      title="New testset"
      description="Rows of inputs and expected answers to evaluate agents on. Start empty, or import a file as version 1."
      onSubmit={submit}
      submitLabel={
        rows ? `Create with ${rows.toLocaleString("en-US")} ${rows === 1 ? "row" : "rows"}` : "Create testset"
      }
      busy={create.isPending}
      error={create.error}
      errorTitle="Could not create the testset"
      noValidate
    >
      <TextField
        label="Name"
        name="name"
        placeholder="e.g. Support questions"
        maxLength={256}
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={touched && name.trim() === "" ? "Give the testset a name" : undefined}
        required
        data-autofocus
      />
      <ImportSource onParsed={setParsed} />
    </FormDialog>
  );
}

"use client";

import { useState, type FormEvent } from "react";
import { Dialog, FormDialogFooter, TextField } from "@/components/ui";
import { columnNameProblem } from "./table-edits";
import type { TestsetTable } from "./testset-table";

const FORM_ID = "testset-column-form";

/** Names a new column, or renames one (`renaming`); the table changes only in the draft. */
export function ColumnDialog({
  open,
  table,
  renaming,
  onClose,
  onSave,
}: {
  open: boolean;
  table: TestsetTable;
  renaming?: string;
  onClose: () => void;
  onSave: (name: string) => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={renaming ? `Rename column ${renaming}` : "Add a column"}
      description={
        renaming
          ? "Every row keeps its value under the new name."
          : "Every row gets an empty value; evaluators read columns by name (e.g. input, correct_answer)."
      }
      footer={
        <FormDialogFooter
          formId={FORM_ID}
          busy={false}
          onCancel={onClose}
          submitLabel={renaming ? "Rename" : "Add column"}
        />
      }
    >
      {open && <ColumnForm table={table} renaming={renaming} onSave={onSave} />}
    </Dialog>
  );
}

function ColumnForm({
  table,
  renaming,
  onSave,
}: {
  table: TestsetTable;
  renaming?: string;
  onSave: (name: string) => void;
}) {
  const [name, setName] = useState(renaming ?? "");
  const [touched, setTouched] = useState(false);
  const problem = columnNameProblem(table, name, renaming);
  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!problem) onSave(name.trim());
  }
  return (
    <form id={FORM_ID} onSubmit={submit} noValidate>
      <TextField
        label="Column name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={touched ? problem : undefined}
        className="font-mono"
        autoComplete="off"
        spellCheck={false}
        data-autofocus
      />
    </form>
  );
}

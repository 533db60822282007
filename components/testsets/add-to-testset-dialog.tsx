"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc";
import { Dialog, FormDialogFooter, Notice, TextField, useToast, Textarea } from "@/components/ui";
import type { TestcaseData } from "./testset-table";

const FORM_ID = "add-to-testset-form";
const NEW = "__new__";

const LABELS: Record<string, string> = {
  input: "Input",
  messages: "Conversation (messages)",
  correct_answer: "Expected answer (correct_answer)",
};

/**
 * Rows taken from traffic, reviewed (the expected answer edited, or any text column) and added to a
 * chosen testset as one new revision, or to a new testset as its first.
 */
export function AddToTestsetDialog({
  open,
  rows: initial,
  onClose,
}: {
  open: boolean;
  rows: TestcaseData[];
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title="Add to testset"
      description={`${initial.length} ${initial.length === 1 ? "row" : "rows"}: what the agent received, and what it answered as the expected answer. Edit before adding.`}
      footer={<FormDialogFooter formId={FORM_ID} busy={false} onCancel={onClose} submitLabel="Add to testset" />}
    >
      {open && <AddForm initial={initial} onDone={onClose} />}
    </Dialog>
  );
}

function AddForm({ initial, onDone }: { initial: TestcaseData[]; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const selectId = useId();
  const testsets = useQuery(trpc.testsets.list.queryOptions({ limit: 200 }));
  const [rows, setRows] = useState(initial);
  const [target, setTarget] = useState<string>("");
  const [name, setName] = useState("");
  const [touched, setTouched] = useState(false);
  const choice = target || (testsets.data?.items[0]?.testset.id ?? NEW);

  const done = async (testsetName: string, version: string) => {
    await queryClient.invalidateQueries({ queryKey: trpc.testsets.pathKey() });
    toast({
      title: `Added ${rows.length} ${rows.length === 1 ? "row" : "rows"} to ${testsetName}`,
      description: `Committed as v${version}.`,
    });
    onDone();
  };
  const nameOf = (id: string) => testsets.data?.items.find((i) => i.testset.id === id)?.testset.name ?? "the testset";
  const append = useMutation(
    trpc.testsets.append.mutationOptions({
      onSuccess: (revision, input) => done(nameOf(input.testsetId), revision.version),
    }),
  );
  const create = useMutation(
    trpc.testsets.create.mutationOptions({
      onSuccess: (created) => done(created.testset.name ?? created.testset.slug, created.revision.version),
    }),
  );
  const error = append.error ?? create.error;
  const busy = append.isPending || create.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (busy) return;
    const message = `Add ${rows.length} ${rows.length === 1 ? "row" : "rows"} from traffic`;
    if (choice === NEW) {
      if (name.trim() === "") return;
      create.mutate({ name: name.trim(), testcases: rows, message });
    } else append.mutate({ testsetId: choice, testcases: rows, message });
  }

  const edit = (index: number, column: string, value: string) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, [column]: value } : row)));

  return (
    <form id={FORM_ID} onSubmit={submit} className="flex min-w-0 flex-col gap-4" noValidate aria-busy={busy}>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={selectId} className="text-sm font-medium">
          Testset
        </label>
        <select
          id={selectId}
          value={choice}
          onChange={(e) => setTarget(e.target.value)}
          disabled={testsets.isPending}
          className="h-8 w-full min-w-0 cursor-pointer rounded-md border border-line bg-surface px-2 text-sm shadow-xs outline-none focus:border-accent focus:ring-3 focus:ring-accent/20"
          data-autofocus
        >
          {testsets.data?.items.map((item) => (
            <option key={item.testset.id} value={item.testset.id}>
              {item.testset.name ?? item.testset.slug}
              {item.latest
                ? ` (${item.latest.rows.toLocaleString("en-US")} ${item.latest.rows === 1 ? "row" : "rows"}, v${item.latest.version})`
                : ""}
            </option>
          ))}
          <option value={NEW}>New testset…</option>
        </select>
      </div>
      {choice === NEW && (
        <TextField
          label="Name of the new testset"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={256}
          autoComplete="off"
          error={touched && name.trim() === "" ? "Give the testset a name" : undefined}
        />
      )}
      <ol className="flex flex-col gap-3" aria-label="Rows to add">
        {rows.map((row, index) => (
          <li
            key={index}
            className="flex min-w-0 flex-col gap-2 rounded-lg border border-line p-3"
            data-testid="new-row"
          >
            {rows.length > 1 && <p className="text-xs font-medium text-muted">Row {index + 1}</p>}
            {Object.entries(row).map(([column, value]) => (
              <CellField
                key={column}
                label={LABELS[column] ?? column}
                value={value}
                onChange={(text) => edit(index, column, text)}
              />
            ))}
          </li>
        ))}
      </ol>
      {error && (
        <Notice tone="danger" title="Could not add the rows">
          {error.message}
        </Notice>
      )}
    </form>
  );
}

/** Text is edited in place; a structured value (a conversation) is shown read-only as JSON, as it will be stored. */
function CellField({ label, value, onChange }: { label: string; value: unknown; onChange: (text: string) => void }) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      {typeof value === "string" ? (
        <Textarea
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          rows={Math.min(6, Math.max(2, value.split("\n").length))}
        />
      ) : (
        <textarea
          id={id}
          readOnly
          value={JSON.stringify(value, null, 2)}
          rows={6}
          className="w-full resize-y rounded-md border border-line bg-surface-muted/60 px-2.5 py-1.5 font-mono text-xs"
        />
      )}
    </div>
  );
}

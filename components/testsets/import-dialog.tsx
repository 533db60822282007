"use client";

import { useState } from "react";
import { Button, Dialog } from "@/components/ui";
import { ImportSource } from "./import-source";
import { appendTable, type ParsedTable } from "./table-files";
import type { TestsetTable } from "./testset-table";

type Mode = "replace" | "append";

/** Reads a file into the draft (replacing the rows or after them); nothing is committed until Commit. */
export function ImportDialog({
  open,
  table,
  onClose,
  onImport,
}: {
  open: boolean;
  table: TestsetTable;
  onClose: () => void;
  onImport: (next: TestsetTable) => void;
}) {
  const [parsed, setParsed] = useState<ParsedTable | null>(null);
  const [mode, setMode] = useState<Mode>("replace");
  const close = () => {
    setParsed(null);
    onClose();
  };
  const apply = () => {
    if (!parsed?.ok) return;
    onImport(mode === "replace" ? parsed.table : appendTable(table, parsed.table));
    close();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      size="lg"
      title="Import rows"
      description="The rows go into your draft: review them in the table, then commit."
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="primary" onClick={apply} disabled={!parsed?.ok}>
            {mode === "replace" ? "Replace rows" : "Add rows"}
          </Button>
        </>
      }
    >
      <div className="flex min-w-0 flex-col gap-4">
        <ImportSource onParsed={setParsed} />
        <fieldset className="flex flex-col gap-2 text-sm">
          <legend className="mb-1 font-medium">Into this testset</legend>
          {(
            [
              ["replace", `Replace the ${table.rows.length.toLocaleString("en-US")} current rows`],
              ["append", "Add after the current rows"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2">
              <input
                type="radio"
                name="import-mode"
                value={value}
                checked={mode === value}
                onChange={() => setMode(value)}
                className="accent-[var(--accent)]"
              />
              {label}
            </label>
          ))}
        </fieldset>
      </div>
    </Dialog>
  );
}

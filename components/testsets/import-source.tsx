"use client";

import { useId, useState } from "react";
import { Notice } from "@/components/ui";
import { formatOf, parseTable, type ParsedTable } from "./table-files";
import { TablePreview } from "./table-preview";

/** A file to import (CSV or JSON), read in the browser, parsed, previewed or refused with the reason. */
export function ImportSource({ onParsed }: { onParsed: (parsed: ParsedTable | null) => void }) {
  const id = useId();
  const [parsed, setParsed] = useState<ParsedTable | null>(null);
  const [name, setName] = useState<string>();

  async function read(file: File | undefined) {
    if (!file) return;
    const text = await file.text();
    const result = parseTable(text, formatOf(file.name, text));
    setName(file.name);
    setParsed(result);
    onParsed(result);
  }

  return (
    <div className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={id} className="text-sm font-medium">
          CSV or JSON file
        </label>
        <input
          id={id}
          type="file"
          accept=".csv,.tsv,.json,text/csv,application/json"
          onChange={(e) => void read(e.target.files?.[0])}
          className="block w-full min-w-0 text-sm text-muted file:mr-3 file:h-8 file:cursor-pointer file:rounded-md file:border file:border-line file:bg-surface file:px-3 file:text-sm file:font-medium file:text-foreground hover:file:bg-surface-muted"
        />
        <p className="text-xs text-muted">
          CSV: a header row names the columns. JSON: an array of objects, one per row.
        </p>
      </div>
      {parsed && !parsed.ok && (
        <Notice tone="danger" title={`Cannot import ${name}`}>
          {parsed.error}
        </Notice>
      )}
      {parsed?.ok && <TablePreview table={parsed.table} />}
    </div>
  );
}

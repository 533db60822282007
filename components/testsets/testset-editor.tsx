"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Badge, Button, Card, EmptyState, Notice, PlusIcon, QueryError, Skeleton, useToast } from "@/components/ui";
import { useCanEdit } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { clipboardGrid } from "./clipboard-grid";
import { ColumnDialog } from "./column-dialog";
import { CommitDialog } from "./commit-dialog";
import { describeDiff } from "./describe-diff";
import { downloadFile } from "./download-file";
import { ImportDialog } from "./import-dialog";
import { textInMessagesColumn } from "./messages-column";
import { diffRows, hasRowChanges } from "./row-diff";
import { addColumn, addRow, deleteColumn, deleteRows, pasteGrid, renameColumn, setCell } from "./table-edits";
import { tableToCsv, tableToJson } from "./table-files";
import { TablePager } from "./table-pager";
import { TestsetGrid } from "./testset-grid";
import { committedRows, tableOfRevision, type TestsetTable } from "./testset-table";
import { TestsetsIcon } from "./testsets-icon";

const PAGE_SIZE = 50;

type ColumnEdit = { kind: "add" } | { kind: "rename"; column: string };

/**
 * The head revision as an editable table. Edits build a draft in the browser; Commit sends the
 * whole table as the next revision. The grid renders one page of rows, so a 10,000-row testset
 * edits as fast as a small one.
 */
export function TestsetEditor({ testsetId }: { testsetId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const canEdit = useCanEdit();
  const testset = useQuery(trpc.testsets.get.queryOptions({ id: testsetId }));
  const head = testset.data?.revision;
  const base = useMemo(() => tableOfRevision(head?.data), [head]);
  const [draft, setDraft] = useState<TestsetTable | null>(null);
  const [page, setPage] = useState(0);
  const [columnEdit, setColumnEdit] = useState<ColumnEdit | null>(null);
  const [importing, setImporting] = useState(false);
  const [committing, setCommitting] = useState(false);
  const table = draft ?? base;
  const diff = useMemo(() => (draft ? diffRows(base.rows, draft.rows) : null), [base, draft]);
  const dirty = Boolean(draft && diff && (hasRowChanges(diff) || draft.columns.join() !== base.columns.join()));
  const pages = Math.max(1, Math.ceil(table.rows.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);

  const commit = useMutation(
    trpc.testsets.commit.mutationOptions({
      onSuccess: async (revision) => {
        await queryClient.invalidateQueries({ queryKey: trpc.testsets.pathKey() });
        setDraft(null);
        setCommitting(false);
        toast({ title: `Committed v${revision.version}`, description: revision.message ?? undefined });
      },
    }),
  );

  const edit = (next: TestsetTable) => setDraft(next);
  const name = testset.data?.testset.name ?? "testset";

  if (testset.isPending) return <Skeleton className="h-96" />;
  if (testset.isError)
    return (
      <QueryError
        title="Could not load the testset"
        error={testset.error}
        onRetry={() => testset.refetch()}
        retrying={testset.isFetching}
      />
    );
  const variant = testset.data.variant;
  const readOnly = !canEdit || !variant;

  return (
    <div className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Table">
        <Button size="sm" onClick={() => edit(addRow(table))} disabled={readOnly}>
          <PlusIcon className="size-3" /> Row
        </Button>
        <Button size="sm" onClick={() => setColumnEdit({ kind: "add" })} disabled={readOnly}>
          <PlusIcon className="size-3" /> Column
        </Button>
        <Button size="sm" onClick={() => setImporting(true)} disabled={readOnly}>
          Import
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => downloadFile(`${name}.csv`, tableToCsv(table), "text/csv")}
          disabled={table.columns.length === 0}
        >
          Export CSV
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => downloadFile(`${name}.json`, tableToJson(table), "application/json")}
          disabled={table.columns.length === 0}
        >
          Export JSON
        </Button>
        <span className="ml-auto flex items-center gap-2">
          {dirty && diff && (
            <Badge tone="warning" dot>
              <span data-testid="draft-summary">{describeDiff(diff).join(" · ")}</span>
            </Badge>
          )}
          {draft && (
            <Button size="sm" variant="ghost" onClick={() => setDraft(null)} disabled={commit.isPending}>
              Discard
            </Button>
          )}
          <Button size="sm" variant="primary" disabled={!dirty || readOnly} onClick={() => setCommitting(true)}>
            Commit
          </Button>
        </span>
      </div>

      {textInMessagesColumn(table.rows) > 0 && (
        <Notice tone="warning" title="The messages column holds text">
          {textInMessagesColumn(table.rows)} of {table.rows.length} rows hold text in <code>messages</code>. An agent
          takes that column only as a conversation (a JSON list of {"{role, content}"} messages); these rows are sent as
          JSON of all their columns instead. Put plain text in an <code>input</code> column.
        </Notice>
      )}
      <Card className="overflow-hidden">
        {table.columns.length === 0 ? (
          <EmptyState
            icon={<TestsetsIcon />}
            title="This testset is empty"
            description="Import a CSV or JSON file, or add columns (e.g. input and correct_answer) and rows by hand."
            action={
              <span className="flex gap-2">
                <Button variant="primary" onClick={() => setImporting(true)} disabled={readOnly}>
                  Import a file
                </Button>
                <Button onClick={() => setColumnEdit({ kind: "add" })} disabled={readOnly}>
                  Add a column
                </Button>
              </span>
            }
          />
        ) : (
          <>
            <TestsetGrid
              table={table}
              offset={current * PAGE_SIZE}
              pageSize={PAGE_SIZE}
              readOnly={readOnly}
              onEditCell={(row, column, text) => edit(setCell(table, row, column, text))}
              onPaste={(at, text) => edit(pasteGrid(table, at, clipboardGrid(text)))}
              onDeleteRow={(row) => edit(deleteRows(table, [row]))}
              onRenameColumn={(column) => setColumnEdit({ kind: "rename", column })}
              onDeleteColumn={(column) => edit(deleteColumn(table, column))}
            />
            <TablePager
              page={current}
              pages={pages}
              pageSize={PAGE_SIZE}
              total={table.rows.length}
              onPage={setPage}
              onAddRow={
                readOnly
                  ? undefined
                  : () => {
                      edit(addRow(table));
                      setPage(Math.floor(table.rows.length / PAGE_SIZE));
                    }
              }
            />
          </>
        )}
      </Card>

      <ColumnDialog
        open={columnEdit !== null}
        table={table}
        renaming={columnEdit?.kind === "rename" ? columnEdit.column : undefined}
        onClose={() => setColumnEdit(null)}
        onSave={(columnName) => {
          edit(
            columnEdit?.kind === "rename"
              ? renameColumn(table, columnEdit.column, columnName)
              : addColumn(table.rows.length ? table : addRow(table), columnName),
          );
          setColumnEdit(null);
        }}
      />
      <ImportDialog
        open={importing}
        table={table}
        onClose={() => setImporting(false)}
        onImport={(next) => {
          edit(next);
          setPage(0);
        }}
      />
      <CommitDialog
        key={head?.id}
        open={committing}
        diff={diff}
        nextVersion={String(Number(variant?.version ?? 0) + 1)}
        busy={commit.isPending}
        error={commit.error?.message}
        onClose={() => (commit.reset(), setCommitting(false))}
        onCommit={(message) =>
          variant &&
          commit.mutate({
            variantId: variant.id,
            testcases: committedRows(table),
            columns: table.columns,
            message: message || (diff ? describeDiff(diff).join("; ") : undefined),
          })
        }
      />
    </div>
  );
}

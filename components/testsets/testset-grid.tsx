"use client";

import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from "react";
import { CloseIcon, cn, PencilIcon } from "@/components/ui";
import { cellText, type TestsetTable } from "./testset-table";

export interface CellPosition {
  /** Index into all rows (not the page). */
  row: number;
  column: number;
}

export interface TestsetGridProps {
  table: TestsetTable;
  /** The first row shown and how many: the grid renders one page, so 10,000 rows cost one page. */
  offset: number;
  pageSize: number;
  readOnly: boolean;
  onEditCell: (row: number, column: string, text: string) => void;
  onPaste: (at: CellPosition, text: string) => void;
  onDeleteRow: (row: number) => void;
  onRenameColumn: (column: string) => void;
  onDeleteColumn: (column: string) => void;
}

/**
 * One page of the table as a grid: arrows move, Enter (or a double click, or typing) edits a cell
 * in place, Enter again saves (Shift+Enter for a new line), Escape cancels, and a spreadsheet
 * selection pasted on a cell fills the block from there.
 */
export function TestsetGrid({
  table,
  offset,
  pageSize,
  readOnly,
  onEditCell,
  onPaste,
  onDeleteRow,
  onRenameColumn,
  onDeleteColumn,
}: TestsetGridProps) {
  const [active, setActive] = useState<CellPosition | null>(null);
  const [editing, setEditing] = useState<{ at: CellPosition; text: string } | null>(null);
  const grid = useRef<HTMLDivElement>(null);
  const closing = useRef(false);
  const rows = table.rows.slice(offset, offset + pageSize);
  const last = offset + rows.length - 1;

  useEffect(() => {
    if (!active || editing) return;
    grid.current?.querySelector<HTMLElement>(`[data-cell="${active.row}:${active.column}"]`)?.focus();
  }, [active, editing]);

  function startEditing(at: CellPosition, text?: string) {
    if (readOnly) return;
    const column = table.columns[at.column];
    closing.current = false;
    setEditing({ at, text: text ?? cellText(table.rows[at.row]?.[column]) });
  }

  function finishEditing(save: boolean) {
    // The textarea's blur can follow Enter or Escape (it unmounts focused): the first one decides.
    if (!editing || closing.current) return;
    closing.current = true;
    if (save) onEditCell(editing.at.row, table.columns[editing.at.column], editing.text);
    setActive(editing.at);
    setEditing(null);
  }

  function move(event: KeyboardEvent, at: CellPosition) {
    const step: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    if (step[event.key]) {
      event.preventDefault();
      const [dr, dc] = step[event.key];
      setActive({
        row: Math.min(last, Math.max(offset, at.row + dr)),
        column: Math.min(table.columns.length - 1, Math.max(0, at.column + dc)),
      });
    } else if (event.key === "Enter" || event.key === "F2") {
      event.preventDefault();
      startEditing(at);
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      startEditing(at, event.key);
    }
  }

  function paste(event: ClipboardEvent, at: CellPosition) {
    if (readOnly) return;
    event.preventDefault();
    onPaste(at, event.clipboardData.getData("text/plain"));
  }

  return (
    <div ref={grid} className="max-h-[70vh] min-h-40 overflow-auto" data-testid="testset-grid">
      <table
        role="grid"
        aria-label="Testcases"
        aria-rowcount={table.rows.length + 1}
        className="w-max min-w-full border-separate border-spacing-0 text-left text-sm"
      >
        <thead className="sticky top-0 z-10 bg-surface-muted">
          <tr>
            <th
              scope="col"
              className="sticky left-0 z-10 w-14 border-b border-line bg-surface-muted px-2 py-2 text-xs font-medium text-muted"
            >
              #
            </th>
            {table.columns.map((column) => (
              <th
                key={column}
                scope="col"
                className="group w-64 max-w-64 min-w-40 border-b border-l border-line px-3 py-1.5 text-xs font-medium text-muted"
              >
                <span className="flex min-w-0 items-center gap-1">
                  <span className="min-w-0 flex-1 truncate font-mono text-foreground" title={column}>
                    {column}
                  </span>
                  {!readOnly && (
                    <>
                      <button
                        type="button"
                        onClick={() => onRenameColumn(column)}
                        aria-label={`Rename column ${column}`}
                        className="rounded p-1 hover:bg-surface hover:text-foreground"
                      >
                        <PencilIcon className="size-3" />
                      </button>
                      <button
                        type="button"
                        onClick={() => onDeleteColumn(column)}
                        aria-label={`Delete column ${column}`}
                        className="rounded p-1 hover:bg-surface hover:text-danger"
                      >
                        <CloseIcon className="size-3" />
                      </button>
                    </>
                  )}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const index = offset + i;
            return (
              <tr key={index} aria-rowindex={index + 2} data-testid="testset-row" className="group/row">
                <th
                  scope="row"
                  className="sticky left-0 z-[1] border-b border-line bg-surface px-2 py-1.5 align-top text-xs font-normal text-muted tabular-nums"
                >
                  <span className="flex items-center justify-between gap-1">
                    {index + 1}
                    {!readOnly && (
                      <button
                        type="button"
                        onClick={() => onDeleteRow(index)}
                        aria-label={`Delete row ${index + 1}`}
                        className="rounded p-0.5 opacity-100 hover:text-danger lg:pointer-fine:opacity-0 lg:pointer-fine:group-hover/row:opacity-100 focus-visible:opacity-100"
                      >
                        <CloseIcon className="size-3" />
                      </button>
                    )}
                  </span>
                </th>
                {table.columns.map((column, c) => {
                  const at = { row: index, column: c };
                  const isActive = active?.row === index && active.column === c;
                  const isEditing = editing?.at.row === index && editing.at.column === c;
                  return (
                    <td
                      key={column}
                      tabIndex={isEditing ? undefined : isActive || (!active && index === offset && c === 0) ? 0 : -1}
                      data-cell={`${index}:${c}`}
                      aria-label={`Row ${index + 1}, ${column}`}
                      onClick={() => !isEditing && setActive(at)}
                      onDoubleClick={() => !isEditing && startEditing(at)}
                      onKeyDown={(e) => !isEditing && e.target === e.currentTarget && move(e, at)}
                      onPaste={(e) => !isEditing && paste(e, at)}
                      onFocus={(e) => e.target === e.currentTarget && !isActive && setActive(at)}
                      className={cn(
                        "w-64 max-w-64 min-w-40 cursor-default border-b border-l border-line p-0 align-top outline-none",
                        isActive && !isEditing && "outline-2 -outline-offset-2 outline-accent",
                      )}
                    >
                      {isEditing ? (
                        <textarea
                          ref={focusAtEnd}
                          aria-label={`Row ${index + 1}, ${column}`}
                          value={editing.text}
                          onChange={(e) => setEditing({ at, text: e.target.value })}
                          onBlur={() => finishEditing(true)}
                          onKeyDown={(e) => {
                            if (e.key === "Escape") {
                              e.preventDefault();
                              finishEditing(false);
                            } else if (e.key === "Enter" && !e.shiftKey) {
                              e.preventDefault();
                              finishEditing(true);
                            }
                          }}
                          rows={4}
                          className="block max-h-80 min-h-24 w-full resize-y bg-surface px-3 py-1.5 font-sans text-sm outline-2 -outline-offset-2 outline-accent"
                        />
                      ) : (
                        <span className="line-clamp-3 min-h-9 px-3 py-1.5 break-words whitespace-pre-wrap">
                          {cellText(row[column])}
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Focuses a cell's editor once, caret after its text: typing into a selected cell starts the editor
 * with the typed key, and `autoFocus` would leave the caret before it ("Where" became "hereW").
 */
function focusAtEnd(textarea: HTMLTextAreaElement | null) {
  if (!textarea || textarea.ownerDocument.activeElement === textarea) return;
  textarea.focus();
  textarea.setSelectionRange(textarea.value.length, textarea.value.length);
}

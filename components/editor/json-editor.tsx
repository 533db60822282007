"use client";

import { useMemo, useRef, type KeyboardEvent, type Ref } from "react";
import { cn } from "@/components/ui";
import { tokenizeJson, type JsonTokenKind } from "./json-tokens";

export type LineMarks = ReadonlyMap<number, "error" | "warning">;

const INDENT = "  ";

const TOKEN_CLASSES: Record<JsonTokenKind, string | undefined> = {
  key: "text-accent",
  string: "text-success",
  number: "text-warning",
  literal: "text-warning font-medium",
  punctuation: "text-muted",
  text: undefined,
};

// Text metrics shared by the highlighted layer and the textarea above it: they must match exactly.
const TEXT_LAYER = "px-3 pt-3 pb-8 whitespace-pre [tab-size:2]";

/**
 * A plain textarea with line numbers and syntax colours: no dependency, native undo, find and
 * accessibility. The colours are a layer under a transparent textarea, scrolled with it. Lines
 * do not wrap, so the gutter always matches. Tab indents; Escape, then Tab, leaves the editor.
 */
export function JsonEditor({
  id,
  value,
  onChange,
  marks,
  textareaRef,
  describedBy,
  invalid,
}: {
  id: string;
  value: string;
  onChange: (next: string) => void;
  marks: LineMarks;
  textareaRef: Ref<HTMLTextAreaElement>;
  describedBy?: string;
  invalid: boolean;
}) {
  const gutter = useRef<HTMLDivElement>(null);
  const layer = useRef<HTMLPreElement>(null);
  const tokens = useMemo(() => tokenizeJson(value), [value]);
  const tabLeaves = useRef(false);
  const count = value.split("\n").length;

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Escape") {
      tabLeaves.current = true;
      return;
    }
    if (
      event.key === "Tab" &&
      !tabLeaves.current &&
      !event.shiftKey &&
      !event.metaKey &&
      !event.ctrlKey &&
      !event.altKey
    ) {
      event.preventDefault();
      // execCommand keeps the browser's undo history; the fallback edits the value directly.
      if (!document.execCommand?.("insertText", false, INDENT)) {
        const el = event.currentTarget;
        const { selectionStart: start, selectionEnd: end } = el;
        onChange(`${value.slice(0, start)}${INDENT}${value.slice(end)}`);
        requestAnimationFrame(() => el.setSelectionRange(start + INDENT.length, start + INDENT.length));
      }
      return;
    }
    tabLeaves.current = false;
  }

  return (
    <div
      className={cn(
        "relative flex h-full min-h-0 overflow-hidden rounded-lg border bg-surface font-mono text-[13px] leading-5",
        "focus-within:ring-3",
        invalid
          ? "border-danger/60 focus-within:ring-danger/15"
          : "border-line focus-within:border-accent focus-within:ring-accent/20",
      )}
    >
      <div
        ref={gutter}
        aria-hidden="true"
        className="w-12 shrink-0 overflow-hidden border-r border-line bg-surface-muted/60 pt-3 pb-8 text-right text-muted/70 select-none"
      >
        {Array.from({ length: count }, (_, i) => {
          const mark = marks.get(i + 1);
          return (
            <div
              key={i}
              className={cn(
                "relative pr-2.5 tabular-nums",
                mark === "error" && "bg-danger-soft font-semibold text-danger",
                mark === "warning" && "bg-warning-soft font-semibold text-warning",
              )}
            >
              {mark && <span className="absolute top-1/2 left-1.5 size-1.5 -translate-y-1/2 rounded-full bg-current" />}
              {i + 1}
            </div>
          );
        })}
      </div>
      <div className="relative min-w-0 flex-1">
        <pre
          ref={layer}
          aria-hidden="true"
          className={cn("pointer-events-none absolute inset-0 isolate m-0 overflow-hidden text-foreground", TEXT_LAYER)}
        >
          {[...marks].map(([line, mark]) => (
            // A tint under the whole line; it scrolls with the text (12px is the layer's top padding, 20px a line).
            <span
              key={line}
              className={cn(
                "absolute left-0 -z-10 h-5 w-[10000px]",
                mark === "error" ? "bg-danger-soft" : "bg-warning-soft",
              )}
              style={{ top: `${12 + (line - 1) * 20}px` }}
            />
          ))}
          {tokens.map((token, i) => (
            <span key={i} className={TOKEN_CLASSES[token.kind]}>
              {token.text}
            </span>
          ))}
          {"\n"}
        </pre>
        <textarea
          ref={textareaRef}
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          onScroll={(event) => {
            const { scrollTop, scrollLeft } = event.currentTarget;
            if (gutter.current) gutter.current.scrollTop = scrollTop;
            if (layer.current) {
              layer.current.scrollTop = scrollTop;
              layer.current.scrollLeft = scrollLeft;
            }
          }}
          wrap="off"
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn(
            "absolute inset-0 h-full w-full resize-none overflow-auto bg-transparent text-transparent caret-foreground outline-none",
            "selection:bg-accent/25 selection:text-transparent",
            TEXT_LAYER,
          )}
        />
      </div>
    </div>
  );
}

/** Focuses the editor with `line` selected and scrolled into view. */
export function revealLine(textarea: HTMLTextAreaElement, line: number): void {
  const lines = textarea.value.split("\n");
  const target = Math.min(Math.max(line, 1), lines.length);
  const start = lines.slice(0, target - 1).reduce((sum, l) => sum + l.length + 1, 0);
  textarea.focus();
  textarea.setSelectionRange(start, start + lines[target - 1].length);
  const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 20;
  textarea.scrollTop = Math.max(0, (target - 4) * lineHeight);
}

"use client";

import { useEffect, useRef } from "react";

export type Hotkeys = Record<string, (event: KeyboardEvent) => void>;

/** True when a key press belongs to something else: typing in a field, a modifier chord, an open dialog. */
export function isForeignKeyPress(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target as HTMLElement | null;
  if (target?.closest("input, textarea, select, [contenteditable='true'], [role='textbox']")) {
    // A checkbox is not a text field: j/k/x still work while it has focus.
    if (!(target instanceof HTMLInputElement && (target.type === "checkbox" || target.type === "radio"))) return true;
  }
  return document.querySelector("dialog[open]") !== null;
}

/**
 * Single-key shortcuts for a page (`j`, `k`, `d`, `?`...). Keys are `event.key` values; the
 * latest handlers are always used, so callers need not memoise them.
 */
export function useHotkeys(hotkeys: Hotkeys, enabled = true): void {
  const latest = useRef(hotkeys);
  useEffect(() => {
    latest.current = hotkeys;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (isForeignKeyPress(event)) return;
      const handler = latest.current[event.key];
      if (!handler) return;
      event.preventDefault();
      handler(event);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [enabled]);
}

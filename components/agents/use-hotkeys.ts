"use client";

import { useEffect, useRef } from "react";

export type Hotkeys = Record<string, (event: KeyboardEvent) => void>;

/** Whether a key press belongs to something else: typing in a field, a modifier chord, an open dialog. */
export function isForeignKeyPress(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target as HTMLElement | null;
  if (target?.closest("input, textarea, select, [contenteditable='true'], [role='textbox']")) {
    if (!(target instanceof HTMLInputElement && (target.type === "checkbox" || target.type === "radio"))) return true;
  }
  return document.querySelector("dialog[open]") !== null;
}

/** Single-key shortcuts of a page (`/`, `c`); the latest handlers are used, so callers need not memoise. */
export function useHotkeys(hotkeys: Hotkeys): void {
  const latest = useRef(hotkeys);
  useEffect(() => {
    latest.current = hotkeys;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isForeignKeyPress(event)) return;
      const handler = latest.current[event.key];
      if (!handler) return;
      event.preventDefault();
      handler(event);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}

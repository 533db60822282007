"use client";

import { useEffect, useRef } from "react";

/** Ctrl/⌘+Enter and Ctrl/⌘+S commit from anywhere in the editor, text fields included. */
export function useCommitShortcut(onCommit: () => void): void {
  const latest = useRef(onCommit);
  useEffect(() => {
    latest.current = onCommit;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.metaKey || event.ctrlKey) || event.altKey || event.shiftKey) return;
      if (event.key !== "Enter" && event.key.toLowerCase() !== "s") return;
      if (document.querySelector("dialog[open]")) return;
      event.preventDefault(); // also keeps the browser's "Save page" dialog away
      latest.current();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}

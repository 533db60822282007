"use client";

import { useState } from "react";

const KEY = "agent-editor:chat-open";

/** Whether the chat pane is shown: the person's last choice, else open on wide screens only. */
export function useChatPane(): [boolean, () => void] {
  const [open, setOpen] = useState(() => {
    if (typeof window === "undefined") return false;
    try {
      const stored = window.localStorage.getItem(KEY);
      if (stored !== null) return stored === "1";
    } catch {
      // storage unavailable: fall through to the screen-size default
    }
    return window.matchMedia("(min-width: 1536px)").matches;
  });
  function toggle() {
    const next = !open;
    setOpen(next);
    try {
      window.localStorage.setItem(KEY, next ? "1" : "0");
    } catch {
      // not remembered; fine
    }
  }
  return [open, toggle];
}

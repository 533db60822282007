"use client";

import { useEffect, useState } from "react";
import { Button, type ButtonProps } from "./button";
import { CheckIcon, CopyIcon } from "./icons";

const RESET_AFTER_MS = 2_000;

/** Copies `value` to the clipboard and says so, visibly and to screen readers. */
export function CopyButton({
  value,
  label = "Copy",
  ...props
}: { value: string; label?: string } & Omit<ButtonProps, "onClick" | "children" | "value">) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), RESET_AFTER_MS);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      // Clipboard access needs a secure context and permission; the value stays selectable by hand.
      setState("failed");
    }
  }

  return (
    <>
      <Button onClick={copy} aria-label={label} {...props}>
        {state === "copied" ? <CheckIcon className="size-3.5 text-success" /> : <CopyIcon className="size-3.5" />}
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
      </Button>
      <span role="status" className="sr-only">
        {state === "copied"
          ? "Copied to clipboard"
          : state === "failed"
            ? "Could not copy; select the text and copy it by hand"
            : ""}
      </span>
    </>
  );
}

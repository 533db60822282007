"use client";

import { useEffect, useState } from "react";
import { Button, CheckIcon } from "@/components/ui";

/** Copies the page's URL as it is when clicked: every comparison is a link someone else can open. */
export function CopyLinkButton() {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2_000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      <Button
        size="sm"
        onClick={() =>
          navigator.clipboard.writeText(window.location.href).then(
            () => setState("copied"),
            () => setState("failed"),
          )
        }
      >
        {state === "copied" ? <CheckIcon className="size-3.5 text-success" /> : <LinkIcon />}
        {state === "copied" ? "Link copied" : state === "failed" ? "Copy failed" : "Copy link"}
      </Button>
      <span role="status" className="sr-only">
        {state === "copied"
          ? "Link copied to clipboard"
          : state === "failed"
            ? "Could not copy; copy the address bar instead"
            : ""}
      </span>
    </>
  );
}

function LinkIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className="size-3.5"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1" />
      <path d="M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1" />
    </svg>
  );
}

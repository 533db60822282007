"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { setNavigationGuard } from "@/components/agents";
import { Button, Dialog } from "@/components/ui";

/**
 * While `active` (uncommitted changes), leaving asks first: closing or reloading the tab through
 * the browser's own prompt, in-app links and the variant switcher through this dialog.
 */
export function LeaveGuard({ active }: { active: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState<(() => void) | null>(null);

  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = ""; // older browsers need it set to show the prompt
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [active]);

  useEffect(() => {
    if (!active) return;
    setNavigationGuard((proceed) => {
      setPending(() => proceed);
      return true;
    });
    return () => setNavigationGuard(null);
  }, [active]);

  useEffect(() => {
    if (!active) return;
    // Capture phase, on the document: runs before Next's <Link> handler and can stop it.
    const onClick = (event: MouseEvent) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return;
      const anchor = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[href]") : null;
      if (!anchor || (anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return;
      const url = new URL(anchor.href, window.location.href);
      // Other sites go through beforeunload; the same page (Form/JSON switch) keeps the draft in memory.
      if (url.origin !== window.location.origin || url.pathname === window.location.pathname) return;
      event.preventDefault();
      event.stopPropagation();
      setPending(() => () => router.push(`${url.pathname}${url.search}${url.hash}`));
    };
    document.addEventListener("click", onClick, true);
    return () => document.removeEventListener("click", onClick, true);
  }, [active, router]);

  function leave() {
    const proceed = pending;
    setPending(null);
    proceed?.();
  }

  return (
    <Dialog
      open={pending !== null}
      onClose={() => setPending(null)}
      role="alertdialog"
      title="Leave without committing?"
      description="Your changes are not in the history yet. The draft stays saved in this browser and comes back when you return to this editor."
      footer={
        <>
          <Button onClick={() => setPending(null)} data-autofocus>
            Stay
          </Button>
          <Button variant="primary" onClick={leave}>
            Leave
          </Button>
        </>
      }
    />
  );
}

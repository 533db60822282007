"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { CloseIcon, Icon, cn, focusRing } from "@/components/ui";
import { Brand } from "./brand";
import { ApiReferenceLink } from "./sidebar";
import { SidebarNav } from "./sidebar-nav";

/**
 * Below `md` the sidebar gives way to a labelled menu button that opens the same navigation in a
 * drawer (a modal <dialog>: focus trap, Escape and focus return come from the browser).
 */
export function MenuDrawer() {
  const ref = useRef<HTMLDialogElement>(null);
  const pathname = usePathname();
  // Open on the page it was opened on: a link that leaves the page closes it, whichever way it was followed.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (next: boolean) => setOpenOn(next ? pathname : null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <>
      <button
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        className={cn(
          "-ml-1 flex size-8 shrink-0 items-center justify-center rounded-md text-muted hover:bg-surface-muted hover:text-foreground md:hidden",
          focusRing,
        )}
      >
        <Icon className="size-5">
          <path d="M4 6h16M4 12h16M4 18h16" />
        </Icon>
      </button>
      <dialog
        ref={ref}
        aria-label="Menu"
        onCancel={(event) => {
          event.preventDefault();
          setOpen(false);
        }}
        onClick={(event) => {
          if (event.target === event.currentTarget) setOpen(false);
        }}
        className="m-0 h-dvh max-h-none w-72 max-w-[85vw] border-r border-line bg-surface p-0 text-foreground shadow-2xl backdrop:bg-black/40"
      >
        {open && (
          <div className="flex h-full flex-col gap-6 px-3 py-4">
            <div className="flex items-center justify-between gap-2">
              <Brand />
              <button
                type="button"
                aria-label="Close menu"
                onClick={() => setOpen(false)}
                className={cn("rounded-md p-1 text-muted hover:bg-surface-muted hover:text-foreground", focusRing)}
              >
                <CloseIcon />
              </button>
            </div>
            <SidebarNav onNavigate={() => setOpen(false)} />
            <div className="mt-auto">
              <ApiReferenceLink />
            </div>
          </div>
        )}
      </dialog>
    </>
  );
}

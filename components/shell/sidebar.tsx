import { BookIcon, ExternalIcon, cn, focusRing } from "@/components/ui";
import { Brand } from "./brand";
import { SidebarNav } from "./sidebar-nav";

/** Icons only on narrow screens, icons and labels from `md` up. */
export function Sidebar() {
  return (
    // The column spans the whole page; its content sticks to the viewport while the page scrolls.
    <aside className="w-14 shrink-0 border-r border-line bg-surface md:w-56">
      <div className="sticky top-0 flex h-screen flex-col gap-6 px-2 py-4 md:px-3">
        <Brand />
        <SidebarNav />
        <div className="mt-auto">
          <a
            href="/api/openapi.json"
            target="_blank"
            rel="noreferrer"
            title="API reference (OpenAPI)"
            className={cn(
              "flex h-8 items-center gap-2.5 rounded-md px-2 text-sm text-muted transition-colors hover:bg-surface-muted/70 hover:text-foreground",
              focusRing,
            )}
          >
            <BookIcon className="size-4 shrink-0" />
            <span className="hidden flex-1 md:inline">API reference</span>
            <ExternalIcon className="hidden size-3.5 md:block" />
          </a>
        </div>
      </div>
    </aside>
  );
}

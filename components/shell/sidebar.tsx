import { BookIcon, ExternalIcon, cn, focusRing } from "@/components/ui";
import { Brand } from "./brand";
import { SidebarNav } from "./sidebar-nav";

/** From `md` up; narrower screens reach the same links through the top bar's menu button. */
export function Sidebar() {
  return (
    // The column spans the whole page; its content sticks to the viewport while the page scrolls.
    <aside className="hidden w-56 shrink-0 border-r border-line bg-surface md:block">
      <div className="sticky top-0 flex h-screen flex-col gap-6 px-3 py-4">
        <Brand />
        <SidebarNav />
        <div className="mt-auto">
          <ApiReferenceLink />
        </div>
      </div>
    </aside>
  );
}

export function ApiReferenceLink() {
  return (
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
      <span className="flex-1">API reference</span>
      <ExternalIcon className="size-3.5" />
    </a>
  );
}

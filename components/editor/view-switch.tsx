import Link from "next/link";
import { BracesIcon, FormIcon, editorPath, type EditorView } from "@/components/agents";
import { cn, focusRing } from "@/components/ui";

const VIEWS: Array<{ view: EditorView; label: string; icon: typeof FormIcon }> = [
  { view: "form", label: "Form", icon: FormIcon },
  { view: "json", label: "JSON", icon: BracesIcon },
];

/** Form or JSON: two views of the same draft, each with its own URL (`?view=json`). */
export function ViewSwitch({ agentId, variantId, view }: { agentId: string; variantId: string; view: EditorView }) {
  return (
    <nav
      aria-label="Editor view"
      className="inline-flex shrink-0 rounded-lg border border-line bg-surface-muted/70 p-0.5"
    >
      {VIEWS.map(({ view: v, label, icon: Icon }) => {
        const current = v === view;
        return (
          <Link
            key={v}
            href={editorPath(agentId, variantId, v)}
            replace
            scroll={false}
            aria-current={current ? "page" : undefined}
            className={cn(
              "flex h-7 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium transition-colors",
              current ? "bg-surface text-foreground shadow-xs" : "text-muted hover:text-foreground",
              focusRing,
            )}
          >
            <Icon className="size-3.5" />
            {label}
          </Link>
        );
      })}
    </nav>
  );
}

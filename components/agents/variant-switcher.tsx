"use client";

import { usePathname, useRouter } from "next/navigation";
import { cn } from "@/components/ui";
import { switchVariantPath } from "./agent-paths";
import { BranchIcon, ChevronDownIcon } from "./icons";
import { guardNavigation } from "./navigation-guard";
import type { AgentVariant } from "./types";
import { variantLabel } from "./variant-label";

/** Which variant (branch) the tabs show; switching keeps the current tab. */
export function VariantSwitcher({
  agentId,
  variantId,
  variants,
}: {
  agentId: string;
  variantId: string;
  variants: AgentVariant[];
}) {
  const router = useRouter();
  const pathname = usePathname();
  const known = variants.some((v) => v.id === variantId);
  return (
    <div
      className={cn(
        "relative flex h-8 items-center rounded-md border border-line bg-surface shadow-xs transition-colors hover:border-line-strong",
        "focus-within:border-accent focus-within:ring-3 focus-within:ring-accent/20",
      )}
    >
      <BranchIcon className="pointer-events-none absolute left-2.5 size-3.5 text-muted" />
      <select
        aria-label="Variant"
        value={variantId}
        onChange={(event) => {
          const next = event.target.value;
          guardNavigation(() => router.push(switchVariantPath(pathname, agentId, next)));
        }}
        className="h-full max-w-[min(18rem,60vw)] cursor-pointer appearance-none truncate rounded-md bg-transparent pr-8 pl-8 text-sm font-medium outline-none"
      >
        {!known && <option value={variantId}>Unknown variant</option>}
        {variants.map((v) => (
          <option key={v.id} value={v.id}>
            {variantLabel(v)}
            {v.version ? ` · v${v.version}` : ""}
            {v.deleted_at ? " (archived)" : ""}
          </option>
        ))}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute right-2.5 size-3.5 text-muted" />
    </div>
  );
}

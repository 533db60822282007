import type { ReactNode } from "react";
import { cn } from "@/components/ui";

/**
 * Reading-width content with page padding. Full-bleed pages (the editor beside a chat, later)
 * skip it and fill the main area themselves. Not centred: every page's content starts at the
 * agent pages' gutter (px-6), so titles do not jump sideways from page to page.
 */
export function PageContainer({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn("flex w-full max-w-5xl flex-col gap-8 px-4 py-8 md:px-6 md:py-10", className)}>{children}</div>
  );
}

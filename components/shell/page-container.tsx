import type { ReactNode } from "react";
import { cn } from "@/components/ui";

/**
 * Reading-width content with page padding. Full-bleed pages (the editor beside a chat, later)
 * skip it and fill the main area themselves.
 */
export function PageContainer({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn("mx-auto flex w-full max-w-5xl flex-col gap-8 px-4 py-8 md:px-8 md:py-10", className)}>
      {children}
    </div>
  );
}

import type { ReactNode } from "react";
import { cn } from "@/components/ui";

/** Padding and width of a tab under the agent header; `wide` lets a diff use a wide screen. */
export function TabContainer({
  children,
  wide = false,
  className,
}: {
  children: ReactNode;
  wide?: boolean;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "mx-auto flex w-full flex-col gap-5 px-4 py-6 md:px-6",
        wide ? "max-w-[1800px]" : "max-w-6xl",
        className,
      )}
    >
      {children}
    </div>
  );
}

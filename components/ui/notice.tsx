import type { ReactNode } from "react";
import { cn } from "./cn";
import { AlertIcon, CheckIcon, InfoIcon } from "./icons";

export type NoticeTone = "info" | "success" | "warning" | "danger";

const tones: Record<NoticeTone, string> = {
  info: "border-line bg-surface-muted/70 text-foreground [&_svg]:text-muted",
  success: "border-transparent bg-success-soft text-foreground [&_svg]:text-success",
  warning: "border-transparent bg-warning-soft text-foreground [&_svg]:text-warning",
  danger: "border-transparent bg-danger-soft text-foreground [&_svg]:text-danger",
};

const icons: Record<NoticeTone, typeof InfoIcon> = {
  info: InfoIcon,
  success: CheckIcon,
  warning: AlertIcon,
  danger: AlertIcon,
};

/** An inline message in the page flow; errors are announced at once, the rest politely. */
export function Notice({
  tone = "info",
  title,
  children,
  action,
  className,
}: {
  tone?: NoticeTone;
  title?: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  const Icon = icons[tone];
  return (
    <div
      role={tone === "danger" ? "alert" : "status"}
      className={cn("flex items-start gap-3 rounded-lg border px-3.5 py-3 text-sm", tones[tone], className)}
    >
      <Icon className="mt-0.5 size-4 shrink-0" />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        {title && <p className="font-medium">{title}</p>}
        {children && <div className="text-foreground/80">{children}</div>}
      </div>
      {action && <div className="shrink-0">{action}</div>}
    </div>
  );
}

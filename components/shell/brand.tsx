import Link from "next/link";
import { focusRing } from "@/components/ui";

export function Brand() {
  return (
    <Link
      href="/"
      className={`flex items-center gap-2.5 rounded-md px-1 ${focusRing}`}
      aria-label="Agent service, home"
    >
      <span
        aria-hidden="true"
        className="flex size-7 shrink-0 items-center justify-center rounded-lg bg-gradient-to-br from-accent to-[#8b5cf6] text-xs font-bold text-white shadow-sm"
      >
        A
      </span>
      <span className="flex flex-col leading-tight">
        <span className="text-sm font-semibold tracking-tight">Agent service</span>
        <span className="text-xs text-muted">Playground</span>
      </span>
    </Link>
  );
}

import type { ReactNode } from "react";
import { Brand } from "@/components/shell/brand";

/** The centred card of the pages people see before they are signed in. */
export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-surface-muted/40 px-4 py-12">
      <div className="flex w-full max-w-sm flex-col gap-6">
        <Brand />
        <section
          aria-labelledby="auth-title"
          className="flex flex-col gap-5 rounded-xl border border-line bg-surface p-6 shadow-xs"
        >
          <header className="flex flex-col gap-1.5">
            <h1 id="auth-title" className="text-lg font-semibold tracking-tight">
              {title}
            </h1>
            {description && <p className="text-sm text-muted">{description}</p>}
          </header>
          {children}
        </section>
      </div>
    </main>
  );
}

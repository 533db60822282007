import { Badge } from "@/components/ui";
import { ProjectName } from "./project-name";

export function TopBar() {
  return (
    <header className="sticky top-0 z-10 flex h-14 shrink-0 items-center justify-between gap-4 border-b border-line bg-surface/80 px-4 backdrop-blur md:px-6">
      <div className="flex min-w-0 items-center gap-2 text-sm">
        <span className="hidden text-muted sm:inline">Project</span>
        <span aria-hidden="true" className="hidden text-line-strong sm:inline">
          /
        </span>
        <ProjectName />
      </div>
      <span className="hidden sm:block">
        <Badge tone="neutral">Acting as the default user</Badge>
      </span>
    </header>
  );
}

"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/components/trpc";
import { useToast } from "@/components/ui";
import { useAccount } from "./account-context";

const NEW_PROJECT = "__new__";

/**
 * The project the playground acts in. Switching changes the session's project on the server
 * (the client never names a project per call), then every page reloads its data.
 */
export function ProjectSwitcher() {
  const { projects, current } = useAccount();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const toast = useToast();
  const after = {
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      router.push("/");
      router.refresh();
    },
    onError: (error: { message: string }) =>
      toast({ tone: "danger", title: "Could not switch project", description: error.message }),
  };
  const switchProject = useMutation(trpc.account.switchProject.mutationOptions(after));
  const createProject = useMutation(trpc.account.createProject.mutationOptions(after));

  function onChange(value: string) {
    if (value !== NEW_PROJECT) return switchProject.mutate({ projectId: value });
    const name = window.prompt("Name of the new project");
    if (name?.trim()) createProject.mutate({ name: name.trim() });
  }

  const currentName = projects.find((p) => p.projectId === current?.projectId)?.projectName ?? "No project";
  return (
    <span className="flex min-w-0 items-center gap-2">
      <span
        aria-hidden="true"
        className="flex size-5 shrink-0 items-center justify-center rounded bg-accent-soft text-[11px] font-semibold text-accent"
      >
        {currentName.charAt(0).toUpperCase()}
      </span>
      <span className="sr-only" data-testid="project-name">
        {currentName}
      </span>
      <select
        aria-label="Project"
        className="max-w-56 min-w-0 truncate rounded-md border border-transparent bg-transparent py-1 pr-1 font-medium hover:border-line focus:border-line"
        value={current?.projectId ?? ""}
        disabled={switchProject.isPending || createProject.isPending}
        onChange={(event) => onChange(event.target.value)}
      >
        {projects.map((p) => (
          <option key={p.projectId} value={p.projectId}>
            {p.projectName}
          </option>
        ))}
        <option value={NEW_PROJECT}>New project…</option>
      </select>
    </span>
  );
}

"use client";

import { useQuery } from "@tanstack/react-query";
import { SelectInput } from "@/components/editor/select-input";
import { useTRPC } from "@/components/trpc";
import { Skeleton } from "@/components/ui";

/**
 * The revision a new queue runs each testcase through: an agent's or a prompt's, grouped by
 * artifact, newest first; the empty choice keeps the queue to the testcases as they are.
 */
export function RevisionSelect({
  value,
  onChange,
  enabled,
}: {
  value: string;
  onChange: (revisionId: string) => void;
  enabled: boolean;
}) {
  const trpc = useTRPC();
  const revisions = useQuery({ ...trpc.review.revisions.queryOptions(), enabled });
  const groups = [
    ...(revisions.data?.agents ?? []).map((a) => ({ ...a, label: `Agent · ${a.name}` })),
    ...(revisions.data?.prompts ?? []).map((p) => ({ ...p, label: `Prompt · ${p.name}` })),
  ];
  return (
    <label className="flex flex-col gap-1.5 text-sm font-medium">
      Run through
      {revisions.isPending ? (
        <Skeleton className="h-8" />
      ) : (
        <SelectInput value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">
            {groups.length ? "No revision: review the testcases as they are" : "No agent or prompt yet: inputs only"}
          </option>
          {groups.map((g) => (
            <optgroup key={g.id} label={g.label}>
              {g.revisions.map((r) => (
                <option key={r.id} value={r.id}>
                  {`${g.name} · v${r.version}` + (r.message ? ` · ${r.message}` : "")}
                </option>
              ))}
            </optgroup>
          ))}
        </SelectInput>
      )}
      {revisions.isError && <span className="text-xs font-normal text-danger">{revisions.error.message}</span>}
    </label>
  );
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCanEdit } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { EditableTitle, Skeleton, useToast } from "@/components/ui";

/** The evaluator's name as its page's title; members rename it in place. */
export function EvaluatorName({ id }: { id: string }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const canEdit = useCanEdit();
  const evaluator = useQuery(trpc.evaluators.get.queryOptions({ id }));
  const rename = useMutation(
    trpc.evaluators.rename.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.evaluators.pathKey() }),
      onError: (error) =>
        toast({ title: "Could not rename the evaluator", description: error.message, tone: "danger" }),
    }),
  );
  if (evaluator.isError) return <h1 className="text-xl font-semibold tracking-tight">Evaluator</h1>;
  if (!evaluator.data) return <Skeleton className="h-7 w-48" />;
  const { name, slug } = evaluator.data.evaluator;
  return (
    <EditableTitle
      value={name ?? slug}
      noun="evaluator"
      pending={rename.isPending}
      onRename={canEdit ? (next) => rename.mutateAsync({ id, name: next }) : undefined}
      className="text-xl!"
    />
  );
}

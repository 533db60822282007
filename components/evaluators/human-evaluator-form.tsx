"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { MemberButton } from "@/components/shell/member-button";
import { useTRPC } from "@/components/trpc";
import { Notice, TextField } from "@/components/ui";
import { HUMAN_FEEDBACK_URI } from "@/shared/evaluator-uris";
import { evaluatorPath } from "./evaluator-paths";

/** What people give in a queue: the review page asks for a 1–5 score or for pass / fail by these outputs. */
const SCALES = {
  score: { type: "object", properties: { score: { type: "number", minimum: 1, maximum: 5 } } },
  pass_fail: { type: "object", properties: { success: { type: "boolean" } } },
} as const;

/** Creates a human feedback evaluator: it never runs; people score with it in review queues. */
export function HumanEvaluatorForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [scale, setScale] = useState<keyof typeof SCALES>("score");
  const create = useMutation(
    trpc.evaluators.create.mutationOptions({
      onSuccess: async (created) => {
        await queryClient.invalidateQueries({ queryKey: trpc.evaluators.list.queryKey() });
        router.push(evaluatorPath(created.evaluator.id));
      },
    }),
  );
  return (
    <form
      aria-label="Human feedback evaluator"
      className="flex flex-wrap items-end gap-3 p-5"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({
          name: name.trim(),
          data: { uri: HUMAN_FEEDBACK_URI, schemas: { outputs: SCALES[scale] } },
        });
      }}
    >
      <div className="min-w-48 flex-1">
        <TextField label="Name" value={name} required maxLength={256} onChange={(e) => setName(e.target.value)} />
      </div>
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        People give
        <SelectInput value={scale} onChange={(e) => setScale(e.target.value as keyof typeof SCALES)}>
          <option value="score">a score from 1 to 5</option>
          <option value="pass_fail">pass or fail</option>
        </SelectInput>
      </label>
      <MemberButton
        type="submit"
        variant="primary"
        loading={create.isPending}
        disabled={!name.trim()}
        viewerTitle="Viewers cannot create evaluators"
      >
        Create human evaluator
      </MemberButton>
      {create.isError && (
        <Notice tone="danger" title="Not created">
          {create.error.message}
        </Notice>
      )}
    </form>
  );
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useAccount } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Button, InlineCode, Input, Notice } from "@/components/ui";
import { ControlCard } from "./control-card";
import { Field } from "./field";
import { TargetSelect } from "./target-select";
import { useTargets } from "./use-targets";

/** The project's model allowlist and its keys' narrower ones; owners add and remove them. */
export function AllowlistsSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOwner = useAccount().current?.role === "owner";
  const lists = useQuery(trpc.controls.allowlists.list.queryOptions());
  const targets = useTargets();
  const remove = useMutation(
    trpc.controls.allowlists.delete.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.controls.allowlists.pathKey() }),
    }),
  );
  return (
    <ControlCard
      title="Model allowlists"
      testId="allowlists"
      description="Which provider/model a turn may call (globs: anthropic/*, openai/gpt-5-mini). A key's list narrows the project's. A model outside them is refused with 403 before anything is sent."
      query={lists}
      empty="No allowlist: any model the project reaches may run."
      canChange={isOwner}
      onRemove={(list) => remove.mutate({ id: list.id })}
      row={(list) => (
        <p className="flex flex-wrap items-center gap-1.5 text-sm">
          {targets.labelOf(list.scope, list.target_id)}:
          {list.patterns.length ? (
            // Separated in the text too: side by side, "custom/*" and "openai/gpt-5-mini" read as one pattern.
            list.patterns.map((pattern, i) => (
              <span key={pattern} className="inline-flex items-center">
                <InlineCode text={pattern} />
                {i < list.patterns.length - 1 && <span>,</span>}
              </span>
            ))
          ) : (
            <span className="text-muted">no model</span>
          )}
        </p>
      )}
      form={<AllowlistForm />}
    />
  );
}

function AllowlistForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const targets = useTargets();
  const [target, setTarget] = useState("");
  const [patterns, setPatterns] = useState("");
  const create = useMutation(
    trpc.controls.allowlists.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.controls.allowlists.pathKey() });
        setPatterns("");
      },
    }),
  );
  return (
    <form
      aria-label="Add a model allowlist"
      className="grid gap-3 border-t border-line pt-4 sm:grid-cols-3"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({
          scope: target ? "api_key" : "project",
          target_id: target || undefined,
          patterns: patterns
            .split(/[\s,]+/)
            .map((p) => p.trim())
            .filter(Boolean),
        });
      }}
    >
      <Field id={`${id}-target`} label="For">
        <TargetSelect
          id={`${id}-target`}
          targets={targets.apiKeys}
          value={target}
          onChange={setTarget}
          eachLabel="The project"
        />
      </Field>
      <Field id={`${id}-patterns`} label="Models (comma or space separated)">
        <Input
          id={`${id}-patterns`}
          value={patterns}
          onChange={(e) => setPatterns(e.target.value)}
          placeholder="anthropic/*, openai/gpt-5-mini"
          className="font-mono"
        />
      </Field>
      <div className="flex items-end">
        <Button type="submit" variant="primary" loading={create.isPending}>
          Add allowlist
        </Button>
      </div>
      {create.error && (
        <div className="sm:col-span-3">
          <Notice tone="danger">{create.error.message}</Notice>
        </div>
      )}
    </form>
  );
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useAccount } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Button, InlineCode, Input, Notice } from "@/components/ui";
import { ControlCard } from "./control-card";
import { Field } from "./field";

/** `provider/model` or `provider/model*weight`, one per entry. */
function parseEntries(text: string) {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((item) => {
      const [pair, weight] = item.split("*");
      const slash = pair.indexOf("/");
      return {
        provider: pair.slice(0, slash),
        model: pair.slice(slash + 1),
        ...(weight ? { weight: Number(weight) } : {}),
      };
    });
}

/** Model aliases: a name a template uses as its model, standing for ordered fallbacks. */
export function AliasesSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOwner = useAccount().current?.role === "owner";
  const aliases = useQuery(trpc.controls.aliases.list.queryOptions());
  const remove = useMutation(
    trpc.controls.aliases.delete.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.controls.aliases.pathKey() }),
    }),
  );
  return (
    <ControlCard
      title="Model aliases"
      testId="aliases"
      description="A name an agent uses as its model (no provider), standing for provider/model entries tried in order on a 429, a 5xx, a timeout or a refused connection. Weights split the first attempt's traffic. Each attempt is recorded on the trace."
      query={aliases}
      empty="No alias."
      canChange={isOwner}
      onRemove={(alias) => remove.mutate({ id: alias.id })}
      row={(alias) => (
        <p className="flex flex-wrap items-center gap-1.5 text-sm">
          <strong className="font-mono">{alias.name}</strong> →
          {alias.entries.map((entry, i) => (
            <InlineCode key={i} text={`${entry.provider}/${entry.model}${entry.weight ? ` ×${entry.weight}` : ""}`} />
          ))}
          <span className="text-xs text-muted">({alias.attempt_timeout_ms} ms per attempt)</span>
        </p>
      )}
      form={<AliasForm />}
    />
  );
}

function AliasForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState("");
  const [entries, setEntries] = useState("");
  const create = useMutation(
    trpc.controls.aliases.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.controls.aliases.pathKey() });
        setName("");
        setEntries("");
      },
    }),
  );
  return (
    <form
      aria-label="Add a model alias"
      className="grid gap-3 border-t border-line pt-4 sm:grid-cols-3"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ name, entries: parseEntries(entries), attempt_timeout_ms: 15_000 });
      }}
    >
      <Field id={`${id}-name`} label="Name">
        <Input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="support-default"
          className="font-mono"
        />
      </Field>
      <Field id={`${id}-entries`} label="Entries in order (provider/model, optional *weight)">
        <Input
          id={`${id}-entries`}
          value={entries}
          onChange={(e) => setEntries(e.target.value)}
          placeholder="openai/gpt-5-mini, anthropic/claude-haiku-4-5"
          className="font-mono"
        />
      </Field>
      <div className="flex items-end">
        <Button type="submit" variant="primary" loading={create.isPending}>
          Add alias
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

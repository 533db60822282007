"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useAccount } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { SelectInput } from "@/components/editor/select-input";
import { Button, InlineCode, Input, Notice } from "@/components/ui";
import {
  blankEntry,
  describeAliasError,
  entriesOf,
  throughOptions,
  type ConnectionChoice,
  type EntryDraft,
} from "./alias-entries";
import { ControlCard } from "./control-card";
import { Field } from "./field";

/** Model aliases: a name a template uses as its model, standing for ordered fallbacks. */
export function AliasesSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOwner = useAccount().current?.role === "owner";
  const aliases = useQuery(trpc.controls.aliases.list.queryOptions());
  const connections = useConnectionChoices();
  const connectionName = (slug: string) => connections.find((c) => c.slug === slug)?.name ?? slug;
  const remove = useMutation(
    trpc.controls.aliases.delete.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.controls.aliases.pathKey() }),
    }),
  );
  return (
    <ControlCard
      title="Model aliases"
      testId="aliases"
      description="A name an agent uses as its model (no provider), standing for entries tried in order (each a model through one of the project's stored connections or a provider's own key) on a 429, a 5xx, a timeout or a refused connection. Weights split the first attempt's traffic. Each attempt is recorded on the trace."
      query={aliases}
      empty="No alias."
      canChange={isOwner}
      onRemove={(alias) => remove.mutate({ id: alias.id })}
      row={(alias) => (
        <p className="flex flex-wrap items-center gap-1.5 text-sm">
          <strong className="font-mono">{alias.name}</strong> →
          {alias.entries.map((entry, i) => (
            <InlineCode
              key={i}
              text={`${entry.provider}/${entry.model}${entry.connection ? ` via ${connectionName(entry.connection)}` : ""}${entry.weight ? ` ×${entry.weight}` : ""}`}
            />
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
  const [drafts, setDrafts] = useState<EntryDraft[]>([blankEntry()]);
  const connections = useConnectionChoices();
  const options = throughOptions(connections);
  const create = useMutation(
    trpc.controls.aliases.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.controls.aliases.pathKey() });
        setName("");
        setDrafts([blankEntry()]);
      },
    }),
  );
  const change = (i: number, patch: Partial<EntryDraft>) =>
    setDrafts(drafts.map((draft, j) => (j === i ? { ...draft, ...patch } : draft)));
  return (
    <form
      aria-label="Add a model alias"
      className="flex flex-col gap-3 border-t border-line pt-4"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ name: name.trim(), entries: entriesOf(drafts, connections), attempt_timeout_ms: 15_000 });
      }}
    >
      <div className="max-w-sm">
        <Field id={`${id}-name`} label="Name">
          <Input
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="support-default"
            className="font-mono"
          />
        </Field>
      </div>
      <ol className="flex flex-col gap-3" aria-label="Entries in order">
        {drafts.map((draft, i) => {
          const slug = draft.through.startsWith("connection:") ? draft.through.slice("connection:".length) : null;
          const models = connections.find((c) => c.slug === slug)?.models ?? [];
          return (
            <li key={i} className="grid items-end gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_6rem_auto]">
              <Field id={`${id}-through-${i}`} label={`Entry ${i + 1}: through`}>
                <SelectInput
                  id={`${id}-through-${i}`}
                  value={draft.through}
                  onChange={(e) => change(i, { through: e.target.value })}
                >
                  {options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </SelectInput>
              </Field>
              <Field id={`${id}-model-${i}`} label={`Entry ${i + 1}: model`}>
                <Input
                  id={`${id}-model-${i}`}
                  value={draft.model}
                  onChange={(e) => change(i, { model: e.target.value })}
                  placeholder={models[0] ?? "gpt-5-mini"}
                  list={models.length ? `${id}-models-${i}` : undefined}
                  className="font-mono"
                />
              </Field>
              {models.length > 0 && (
                <datalist id={`${id}-models-${i}`}>
                  {models.map((model) => (
                    <option key={model} value={model} />
                  ))}
                </datalist>
              )}
              <Field id={`${id}-weight-${i}`} label={`Entry ${i + 1}: weight`}>
                <Input
                  id={`${id}-weight-${i}`}
                  type="number"
                  min="0"
                  step="any"
                  value={draft.weight}
                  onChange={(e) => change(i, { weight: e.target.value })}
                  placeholder="—"
                />
              </Field>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                disabled={drafts.length === 1}
                onClick={() => setDrafts(drafts.filter((_, j) => j !== i))}
              >
                Remove entry {i + 1}
              </Button>
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          size="sm"
          onClick={() => setDrafts([...drafts, blankEntry()])}
          disabled={drafts.length >= 10}
        >
          Add an entry
        </Button>
        <Button type="submit" variant="primary" loading={create.isPending}>
          Add alias
        </Button>
      </div>
      {create.error && (
        <Notice tone="danger" title="The alias was not added">
          <span data-testid="alias-error">{describeAliasError(create.error)}</span>
        </Notice>
      )}
    </form>
  );
}

/** The project's stored model connections, as the alias form offers them. */
function useConnectionChoices(): ConnectionChoice[] {
  const trpc = useTRPC();
  const list = useQuery(trpc.connections.list.queryOptions()).data ?? [];
  return list.map((c) => {
    const secret = c.secret as { kind: string; data: { kind: string; models?: { slug: string }[] } };
    return {
      slug: c.slug,
      name: c.header.name,
      provider: secret.kind === "custom_provider" ? "custom" : secret.data.kind,
      models: secret.data.models?.map((m) => m.slug) ?? [],
    };
  });
}

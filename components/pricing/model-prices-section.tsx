"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ControlCard } from "@/components/controls/control-card";
import { Field } from "@/components/controls/field";
import { useCanEdit } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Button, Input, Notice } from "@/components/ui";

/** The kinds a price sheet names, in the order people read a bill; input and output are required. */
const KINDS = [
  { kind: "prompt", label: "Input" },
  { kind: "completion", label: "Output" },
  { kind: "cache_read", label: "Cached input" },
  { kind: "cache_write", label: "Cache write (5 min)" },
  { kind: "cache_write_1h", label: "Cache write (1 h)" },
  { kind: "reasoning", label: "Reasoning" },
] as const;

type Kind = (typeof KINDS)[number]["kind"];

/**
 * The project's own price per model (a custom or self-hosted model, a negotiated discount), in USD
 * per million tokens of each kind. It wins over the catalog for what is costed from now on.
 */
export function ModelPricesSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCanEdit();
  const prices = useQuery(trpc.pricing.list.queryOptions());
  const remove = useMutation(
    trpc.pricing.delete.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.pricing.pathKey() }),
    }),
  );
  return (
    <ControlCard
      title="Model prices"
      testId="model-prices"
      description="Your price for a model, in USD per million tokens: it wins over the public catalog for every turn costed from now on (runs and spans already costed keep their price). A model served by your own endpoint has no price until you set one here."
      query={prices}
      empty="No prices of your own: models are priced from the public catalog, and a model it does not list has no price."
      canChange={canEdit}
      onRemove={(price) => remove.mutate({ id: price.id })}
      row={(price) => (
        <div className="flex flex-col gap-1 text-sm">
          <span className="font-mono">
            {price.provider}/{price.model}
          </span>
          <span className="flex flex-wrap gap-x-3 text-xs text-muted">
            {KINDS.filter(({ kind }) => price.usd_per_million_tokens[kind] !== undefined).map(({ kind, label }) => (
              <span key={kind}>
                {label} <span className="text-foreground tabular-nums">${price.usd_per_million_tokens[kind]}</span>
              </span>
            ))}
          </span>
        </div>
      )}
      form={<PriceForm />}
    />
  );
}

function PriceForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [provider, setProvider] = useState("");
  const [model, setModel] = useState("");
  const [sheet, setSheet] = useState<Partial<Record<Kind, string>>>({});
  const set = useMutation(
    trpc.pricing.set.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.pricing.pathKey() });
        setModel("");
        setSheet({});
      },
    }),
  );
  return (
    <form
      aria-label="Set a model price"
      className="grid gap-3 border-t border-line pt-4 sm:grid-cols-2 lg:grid-cols-4"
      onSubmit={(e) => {
        e.preventDefault();
        const priced = KINDS.flatMap(({ kind }) => (sheet[kind]?.trim() ? [[kind, Number(sheet[kind])] as const] : []));
        set.mutate({
          provider: provider.trim(),
          model: model.trim(),
          usd_per_million_tokens: {
            prompt: Number(sheet.prompt ?? ""),
            completion: Number(sheet.completion ?? ""),
            ...Object.fromEntries(priced),
          },
        });
      }}
    >
      <Field id={`${id}-provider`} label="Provider">
        <Input
          id={`${id}-provider`}
          value={provider}
          onChange={(e) => setProvider(e.target.value)}
          placeholder="custom, openai, anthropic…"
          required
          className="font-mono"
        />
      </Field>
      <Field id={`${id}-model`} label="Model">
        <Input
          id={`${id}-model`}
          value={model}
          onChange={(e) => setModel(e.target.value)}
          placeholder="my-llama-70b"
          required
          className="font-mono"
        />
      </Field>
      {KINDS.map(({ kind, label }) => (
        <Field key={kind} id={`${id}-${kind}`} label={`${label} $/M`}>
          <Input
            id={`${id}-${kind}`}
            type="number"
            min={0}
            step="any"
            required={kind === "prompt" || kind === "completion"}
            value={sheet[kind] ?? ""}
            onChange={(e) => setSheet({ ...sheet, [kind]: e.target.value })}
          />
        </Field>
      ))}
      <div className="flex items-end">
        <Button type="submit" variant="primary" loading={set.isPending}>
          Set price
        </Button>
      </div>
      {set.error && (
        <div className="sm:col-span-2 lg:col-span-4">
          <Notice tone="danger">{set.error.message}</Notice>
        </div>
      )}
    </form>
  );
}

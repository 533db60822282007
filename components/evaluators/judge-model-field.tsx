"use client";

import { useQuery } from "@tanstack/react-query";
import { SelectInput } from "@/components/editor/select-input";
import { useTRPC } from "@/components/trpc";
import { Input } from "@/components/ui";

const CUSTOM_PREFIX = "custom:";

/**
 * The judge's model, from what the project can run: a provider it has a connection (or the
 * operator's key) for and a model id, or a stored custom provider and one of its models (written
 * as `model` plus `connection`, the form the judge resolves).
 */
export function JudgeModelField({
  id,
  model,
  connection,
  onChange,
}: {
  id: string;
  model: string;
  connection: string | undefined;
  onChange: (next: { model: string; connection?: string }) => void;
}) {
  const trpc = useTRPC();
  const providers = useQuery(trpc.connections.providers.queryOptions());
  const custom = useQuery(trpc.connections.customModels.queryOptions());
  const slash = model.indexOf("/");
  const customProvider = connection ? custom.data?.find((c) => c.slug === connection) : undefined;
  const provider = customProvider ? `${CUSTOM_PREFIX}${customProvider.slug}` : slash > 0 ? model.slice(0, slash) : "";
  const modelId = customProvider ? model : slash > 0 ? model.slice(slash + 1) : model;
  const known = providers.data ?? [];
  const providerMissing =
    provider && !provider.startsWith(CUSTOM_PREFIX) && !known.some((p) => p.provider === provider);

  const setProvider = (value: string) => {
    if (value.startsWith(CUSTOM_PREFIX)) {
      const slug = value.slice(CUSTOM_PREFIX.length);
      const first = custom.data?.find((c) => c.slug === slug)?.models[0] ?? "";
      onChange({ model: first, connection: slug });
    } else onChange({ model: `${value}/${modelId}` });
  };
  const setModel = (value: string) =>
    customProvider
      ? onChange({ model: value, connection: customProvider.slug })
      : onChange({ model: `${provider}/${value}` });

  return (
    <div className="grid gap-2 sm:grid-cols-2" id={id}>
      <SelectInput aria-label="Judge provider" value={provider} onChange={(e) => setProvider(e.target.value)}>
        {!provider && <option value="">Pick a provider</option>}
        {providerMissing && <option value={provider}>{provider} (no connection in this project)</option>}
        {known.map((p) => (
          <option key={p.provider} value={p.provider}>
            {p.provider} · {p.source === "stored" ? (p.name ?? "stored connection") : "server key"}
          </option>
        ))}
        {(custom.data ?? []).map((c) => (
          <option key={c.slug} value={`${CUSTOM_PREFIX}${c.slug}`}>
            {c.name} (custom)
          </option>
        ))}
      </SelectInput>
      <Input
        aria-label="Judge model"
        list={customProvider ? `${id}-models` : undefined}
        value={modelId}
        placeholder="model id, e.g. gpt-5-mini"
        onChange={(e) => setModel(e.target.value)}
      />
      {customProvider && (
        <datalist id={`${id}-models`}>
          {customProvider.models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      )}
      {providerMissing && (
        <p className="text-xs text-warning sm:col-span-2">
          This project has no connection for {provider}: the judge will fail until one is added under Connections.
        </p>
      )}
    </div>
  );
}

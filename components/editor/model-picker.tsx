"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useConnectedProviders } from "@/components/connections";
import { useTRPC } from "@/components/trpc";
import { Input } from "@/components/ui";
import { comparableModel } from "./comparable-model";
import { FieldIssues, hasError } from "./field-issues";
import { FieldLabel } from "./field-label";
import { FormSection } from "./form-section";
import { ModelFacts } from "./model-facts";
import { formatContextWindow, formatPrice } from "./model-format";
import { SelectInput } from "./select-input";
import { ModelSettings } from "./model-settings";
import {
  readCustomProvider,
  readText,
  writeCustomModel,
  writeModel,
  writeText,
  type Template,
} from "./template-fields";
import type { TemplateIssue } from "./template-issue";
import type { HarnessInfo } from "./types";

const CUSTOM = "__custom__";
const INFER = "";
/** Provider select values of stored custom providers: `custom:<connection slug>`. */
const CUSTOM_PREFIX = "custom:";
/** The provider select's value for the project's model aliases (no provider: the alias chooses). */
const ALIAS = "__alias__";

/**
 * llm.provider and llm.model, fed by the harness catalog: the providers the harness reaches and
 * their curated models (with context window and price), the project's custom providers and the
 * models they list (`llm.connection.slug`), the project's model aliases (`llm.model` = the alias,
 * no provider), or any other model id typed by hand; then the model settings.
 */
export function ModelPicker({
  template,
  onChange,
  harness,
  issues,
}: {
  template: Template;
  onChange: (next: Template) => void;
  harness?: HarnessInfo;
  issues: TemplateIssue[];
}) {
  const trpc = useTRPC();
  const customProviders = useQuery(trpc.connections.customModels.queryOptions()).data ?? [];
  const customSlug = readCustomProvider(template);
  const customProvider = customProviders.find((c) => c.slug === customSlug);
  const model = readText(template, "model") ?? "";
  const providers = harness?.providers ?? [];
  const selection = harness?.model_selection;
  const projectAliases = (useQuery(trpc.controls.aliases.list.queryOptions()).data ?? []).map((a) => a.name);
  const offersAliases = selection?.kind !== "alias" && projectAliases.length > 0;
  const namedProvider =
    customSlug !== undefined ? `${CUSTOM_PREFIX}${customSlug}` : (readText(template, "provider") ?? INFER);
  const provider = namedProvider === INFER && offersAliases && projectAliases.includes(model) ? ALIAS : namedProvider;
  const aliases = selection?.kind === "alias" ? selection.aliases : provider === ALIAS ? projectAliases : null;
  const curated = providers.find((p) => p.provider === provider)?.models ?? [];
  const customChoices = customProvider?.models ?? [];
  const choices = aliases ?? (customSlug !== undefined ? customChoices : curated.map((m) => m.id));
  const [customWanted, setCustomWanted] = useState(false);
  const custom = customWanted || !choices.includes(model);
  const info = curated.find((m) => m.id === model);
  const connected = useConnectedProviders();
  // The project's allowlist, asked about every model offered here and the one chosen.
  const namespace = provider === INFER || provider === ALIAS ? null : customSlug !== undefined ? "custom" : provider;
  const offered = aliases ? [] : customSlug !== undefined ? customChoices : curated.map((m) => m.id);
  const chosenTarget = namespace ? `${namespace}/${model}` : model.includes("/") && !aliases ? model : null;
  const asked = [...new Set([...offered.map((id) => `${namespace}/${id}`), ...(chosenTarget ? [chosenTarget] : [])])];
  const refused =
    useQuery({
      ...trpc.controls.refusedModels.queryOptions({ models: asked }),
      enabled: asked.length > 0,
    }).data ?? {};
  const refusal = chosenTarget ? refused[chosenTarget] : undefined;
  const notAllowed = (id: string) => (namespace && refused[`${namespace}/${id}`] ? " · not allowed" : "");
  const connection =
    provider === INFER || provider === ALIAS || customSlug !== undefined ? undefined : connected.get(provider);

  const providerIssues = issues.filter((i) => i.path === "llm.provider");
  const modelIssues = issues.filter((i) => i.path === "llm.model");
  const otherIssues = issues.filter((i) => !providerIssues.includes(i) && !modelIssues.includes(i));

  function changeProvider(next: string) {
    if (next === ALIAS) {
      setCustomWanted(false);
      return onChange(writeModel(template, null, projectAliases.includes(model) ? model : projectAliases[0]));
    }
    if (next.startsWith(CUSTOM_PREFIX)) {
      const slug = next.slice(CUSTOM_PREFIX.length);
      const listed = customProviders.find((c) => c.slug === slug)?.models ?? [];
      setCustomWanted(false);
      return onChange(writeCustomModel(template, slug, listed.includes(model) ? model : (listed[0] ?? model)));
    }
    const models = providers.find((p) => p.provider === next)?.models ?? [];
    const keep = aliases !== null || models.length === 0 || models.some((m) => m.id === model);
    setCustomWanted(false);
    // Not the first (often the priciest) model: the one closest in price to the model in use.
    onChange(
      writeModel(template, next === INFER ? null : next, keep ? model : (comparableModel(info, models) ?? model)),
    );
  }

  function changeModel(next: string) {
    if (next === CUSTOM) return setCustomWanted(true);
    setCustomWanted(false);
    onChange(writeText(template, "model", next));
  }

  return (
    <FormSection
      id="section-model"
      title="Model"
      description={selection?.description ?? "The provider and the model id in its namespace."}
      invalid={hasError(issues)}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-1.5">
          <FieldLabel htmlFor="field-provider">Provider</FieldLabel>
          <SelectInput
            id="field-provider"
            value={provider}
            onChange={(event) => changeProvider(event.target.value)}
            aria-invalid={hasError(providerIssues) || undefined}
            aria-describedby={providerIssues.length ? "field-provider-issues" : undefined}
          >
            <option value={INFER}>Infer from a stored connection</option>
            {providers.map((p) => (
              <option key={p.provider} value={p.provider}>
                {p.display_name}
                {connected.has(p.provider) ? " · connected" : ""}
              </option>
            ))}
            {customProviders.map((c) => (
              <option key={c.slug} value={`${CUSTOM_PREFIX}${c.slug}`}>
                {c.name} · custom provider
              </option>
            ))}
            {offersAliases && <option value={ALIAS}>Model alias · fallbacks set in Settings</option>}
            {provider !== INFER &&
              provider !== ALIAS &&
              !providers.some((p) => p.provider === provider) &&
              !customProviders.some((c) => `${CUSTOM_PREFIX}${c.slug}` === provider) && (
                <option value={provider}>{customSlug ?? provider}</option>
              )}
          </SelectInput>
          {provider !== INFER && provider !== ALIAS && (
            <p className="text-xs text-muted" data-testid="provider-connection">
              {customSlug !== undefined
                ? customProvider
                  ? `Runs on the custom provider “${customProvider.name}”.`
                  : `No custom provider “${customSlug}” in this project: add it under Connections.`
                : connection?.source === "stored"
                  ? `Runs with the connection “${connection.name}”.`
                  : connection?.source === "operator"
                    ? "Runs with the server operator's key."
                    : "No connection yet: add a key under Connections to run this agent."}
            </p>
          )}
          <FieldIssues id="field-provider-issues" issues={providerIssues} />
        </div>
        <div className="flex flex-col gap-1.5">
          <FieldLabel htmlFor="field-model">Model</FieldLabel>
          <SelectInput
            id="field-model"
            value={custom ? CUSTOM : model}
            onChange={(event) => changeModel(event.target.value)}
            aria-invalid={(!custom && hasError(modelIssues)) || undefined}
          >
            {aliases
              ? aliases.map((alias) => (
                  <option key={alias} value={alias}>
                    {alias}
                    {selection?.kind === "alias" && alias === selection.default ? " (default)" : ""}
                  </option>
                ))
              : customSlug !== undefined
                ? customChoices.map((id) => (
                    <option key={id} value={id}>
                      {id}
                      {notAllowed(id)}
                    </option>
                  ))
                : curated.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.display_name} · {formatContextWindow(m.context_window)} · {formatPrice(m.input_usd_per_mtok)} /{" "}
                      {formatPrice(m.output_usd_per_mtok)}
                      {notAllowed(m.id)}
                    </option>
                  ))}
            <option value={CUSTOM}>Custom model id…</option>
          </SelectInput>
        </div>
      </div>
      {custom && (
        <div className="flex flex-col gap-1.5">
          <FieldLabel htmlFor="field-model-custom" aside={provider === INFER ? "provider/model also works" : undefined}>
            Custom model id
          </FieldLabel>
          <Input
            id="field-model-custom"
            value={model}
            placeholder={provider === INFER ? "e.g. openai/gpt-5" : "any id the provider accepts"}
            onChange={(event) => onChange(writeText(template, "model", event.target.value))}
            spellCheck={false}
            autoComplete="off"
            className="font-mono"
            aria-invalid={hasError(modelIssues) || undefined}
            aria-describedby={modelIssues.length ? "field-model-issues" : undefined}
          />
        </div>
      )}
      <FieldIssues id="field-model-issues" issues={modelIssues} />
      {refusal && chosenTarget && (
        <p className="text-xs text-danger" role="alert" data-testid="model-not-allowed">
          {`${chosenTarget} is not allowed by ${refusal.owner} (${refusal.patterns.join(", ") || "empty: no model"}): a run of it is refused before anything is sent. Pick an allowed model, or change the allowlist under Settings → Model allowlists.`}
        </p>
      )}
      {info ? (
        <ModelFacts model={info} />
      ) : (
        !aliases &&
        customSlug === undefined && (
          <p className="text-xs text-muted">
            {model
              ? "Not in the curated list: no context window or price to show, but any id the provider accepts works."
              : "Choose a model."}
          </p>
        )
      )}
      <FieldIssues issues={otherIssues} basePath="llm" />
      <ModelSettings template={template} onChange={onChange} />
    </FormSection>
  );
}

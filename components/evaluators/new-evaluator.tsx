"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc";
import { Badge, Card, InlineCode, Notice, QueryError, Skeleton } from "@/components/ui";
import { EvaluatorEditor } from "./evaluator-editor";
import { newEvaluatorPath } from "./evaluator-paths";
import { HumanEvaluatorForm } from "./human-evaluator-form";
import type { EvaluatorPreset, EvaluatorTemplate } from "./types";

function ChoiceCard({
  href,
  title,
  description,
  tag,
}: {
  href: string;
  title: string;
  description: string;
  tag: string;
}) {
  return (
    <li>
      <Link
        href={href}
        className="flex h-full min-w-0 flex-col gap-1 rounded-lg border border-line bg-surface p-3 transition-colors hover:border-accent"
      >
        <span className="flex flex-wrap items-center gap-2 text-sm font-medium">
          {title}
          <Badge>{tag}</Badge>
        </span>
        <span className="text-xs text-muted">
          <InlineCode text={description} />
        </span>
      </Link>
    </li>
  );
}

/** The catalog: ready-made presets first (a judge for hallucination, exact match...), then every template. */
function CatalogPicker({ templates, presets }: { templates: EvaluatorTemplate[]; presets: EvaluatorPreset[] }) {
  const nameOf = (key: string) => templates.find((t) => t.key === key)?.name ?? key;
  return (
    <div className="flex flex-col gap-6">
      <Card title="Presets" description="A template with its parameters filled in for a common check.">
        <ul className="grid gap-3 p-5 sm:grid-cols-2 lg:grid-cols-3" aria-label="Presets">
          {presets.map((p) => (
            <ChoiceCard
              key={p.key}
              href={newEvaluatorPath({ preset: p.key })}
              title={p.name}
              description={p.description}
              tag={nameOf(p.template_key)}
            />
          ))}
        </ul>
      </Card>
      <Card
        title="Human feedback"
        description="Scored by people in review queues, never run automatically: open a queue with it under Review."
      >
        <HumanEvaluatorForm />
      </Card>
      <Card title="Templates" description="Start from a built-in evaluator and set every parameter yourself.">
        <ul className="grid gap-3 p-5 sm:grid-cols-2 lg:grid-cols-3" aria-label="Templates">
          {templates.map((t) => (
            <ChoiceCard
              key={t.key}
              href={newEvaluatorPath({ template: t.key })}
              title={t.name}
              description={t.description}
              tag="template"
            />
          ))}
        </ul>
      </Card>
    </div>
  );
}

/** /evaluators/new: pick a preset or a template, then fill its form, try it, create it. */
export function NewEvaluator({ template: templateKey, preset: presetKey }: { template?: string; preset?: string }) {
  const trpc = useTRPC();
  const templates = useQuery(trpc.evaluators.templates.queryOptions());
  const presets = useQuery(trpc.evaluators.presets.queryOptions());
  if (templates.isPending || presets.isPending)
    return (
      <div className="grid gap-3 sm:grid-cols-3">
        <Skeleton className="h-20" />
        <Skeleton className="h-20" />
        <Skeleton className="h-20" />
      </div>
    );
  if (templates.isError || presets.isError)
    return (
      <QueryError
        title="Could not load the catalog"
        error={(templates.error ?? presets.error)!}
        onRetry={() => void Promise.all([templates.refetch(), presets.refetch()])}
        retrying={templates.isFetching || presets.isFetching}
      />
    );
  const preset = presetKey ? presets.data.find((p) => p.key === presetKey) : undefined;
  const template = templates.data.find((t) => t.key === (preset?.template_key ?? templateKey));
  if ((presetKey && !preset) || (templateKey && !template))
    return (
      <Notice tone="warning" title="Not in the catalog">
        No {presetKey ? `preset "${presetKey}"` : `template "${templateKey}"`}.{" "}
        <Link href={newEvaluatorPath()} className="underline">
          Pick another one
        </Link>
        .
      </Notice>
    );
  if (!template) return <CatalogPicker templates={templates.data} presets={presets.data} />;
  return (
    <EvaluatorEditor
      key={preset?.key ?? template.key}
      template={template}
      initialName={preset?.name ?? template.name}
      initialParameters={preset ? { ...preset.data.parameters } : {}}
      target={{ kind: "create" }}
    />
  );
}

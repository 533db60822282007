import { formatContextWindow, formatPrice } from "./model-format";
import type { ModelInfo } from "./types";
import { NO_PRICE } from "@/shared/no-price";

/** Context window and list prices of a curated model, at a glance. */
export function ModelFacts({ model }: { model: ModelInfo }) {
  const facts = [
    { label: "Model id", value: model.id, mono: true },
    { label: "Context window", value: `${formatContextWindow(model.context_window)} tokens` },
    { label: "Input", value: perMillion(model.input_usd_per_mtok) },
    { label: "Output", value: perMillion(model.output_usd_per_mtok) },
  ];
  return (
    <dl
      className="grid grid-cols-2 divide-line rounded-lg border border-line bg-surface-muted/50 sm:grid-cols-4 sm:divide-x"
      data-testid="model-facts"
    >
      {facts.map((fact) => (
        <div key={fact.label} className="flex min-w-0 flex-col gap-0.5 px-3.5 py-2.5">
          <dt className="text-xs text-muted">{fact.label}</dt>
          <dd
            className={fact.mono ? "truncate font-mono text-[13px] font-medium" : "text-sm font-medium tabular-nums"}
            title={fact.value}
          >
            {fact.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const perMillion = (usd: number | undefined) => (usd === undefined ? NO_PRICE : `${formatPrice(usd)} / 1M tokens`);

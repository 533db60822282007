"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { formatScore } from "@/components/evaluations/format";
import { reasonOf } from "@/components/evaluations/output-text";
import { useTRPC } from "@/components/trpc";
import { Badge, Button, Notice, Textarea } from "@/components/ui";
import { sampleInputs } from "./sample-inputs";
import type { TrialOutcome } from "./types";

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function Verdict({ outcome }: { outcome: TrialOutcome }) {
  if (outcome.status === "failure")
    return (
      <Notice tone="danger" title={`The evaluator failed (${outcome.error.code})`}>
        <span className="wrap-anywhere">{outcome.error.message}</span>
      </Notice>
    );
  const { score, success } = outcome.outputs as { score?: unknown; success?: unknown };
  const reason = reasonOf(outcome.outputs);
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-line p-3" data-testid="trial-verdict">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {typeof success === "boolean" && (
          <Badge tone={success ? "success" : "danger"} dot>
            {success ? "Pass" : "Fail"}
          </Badge>
        )}
        {typeof score === "number" && <span className="font-medium tabular-nums">Score {formatScore(score)}</span>}
        {outcome.usage?.costUsd !== undefined && (
          <span className="text-xs text-muted">${outcome.usage.costUsd.toPrecision(2)}</span>
        )}
      </div>
      {reason && <p className="text-sm whitespace-pre-wrap wrap-anywhere text-muted">{reason}</p>}
      <details className="text-xs">
        <summary className="cursor-pointer text-muted">All outputs</summary>
        <pre className="mt-1 max-h-48 overflow-auto rounded bg-surface-muted p-2 wrap-anywhere whitespace-pre-wrap">
          {JSON.stringify(outcome.outputs, null, 2)}
        </pre>
      </details>
    </div>
  );
}

/** Runs the evaluator as it is in the form on a sample testcase and output; nothing is saved. */
export function TryPanel({ data, disabled }: { data: Record<string, unknown>; disabled?: boolean }) {
  const trpc = useTRPC();
  // Untouched, the sample follows the answer key as it is edited; once typed into, it is the person's.
  const [typed, setInputs] = useState<string | null>(null);
  const inputs = typed ?? sampleInputs(data.parameters as Record<string, unknown> | undefined);
  const [output, setOutput] = useState("4");
  const trial = useMutation(trpc.evaluators.try.mutationOptions());
  const parsedInputs = parseObject(inputs);
  return (
    <section aria-labelledby="try-title" className="flex flex-col gap-3">
      <div>
        <h2 id="try-title" className="text-sm font-semibold">
          Try it
        </h2>
        <p className="text-xs text-muted">
          Runs once on this sample, as a cell of an evaluation would. Nothing is stored.
        </p>
      </div>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Testcase (JSON object of columns)
        <Textarea
          look="code"
          rows={5}
          value={inputs}
          aria-invalid={parsedInputs ? undefined : true}
          spellCheck={false}
          onChange={(e) => setInputs(e.target.value)}
        />
      </label>
      {!parsedInputs && <p className="text-xs text-danger">The testcase must be a JSON object.</p>}
      <label className="flex flex-col gap-1 text-sm font-medium">
        Output
        <Textarea look="code" rows={3} value={output} spellCheck={false} onChange={(e) => setOutput(e.target.value)} />
      </label>
      <div>
        <Button
          onClick={() => parsedInputs && trial.mutate({ data, inputs: parsedInputs, outputs: output })}
          loading={trial.isPending}
          disabled={disabled || !parsedInputs}
        >
          Run on sample
        </Button>
      </div>
      {trial.isError && (
        <Notice tone="danger" title="Could not run the evaluator">
          {trial.error.message}
        </Notice>
      )}
      {trial.data && <Verdict outcome={trial.data} />}
    </section>
  );
}

"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc";
import { useAccount } from "@/components/shell/account-context";
import { Button, Card, Notice } from "@/components/ui";
import { RedactionRulesForm } from "./redaction-rules-form";

/** The project's redaction before storage, and a box that shows what a sample becomes under it. */
export function RedactionSection() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.redaction.settings.queryOptions());
  const tryIt = useMutation(trpc.redaction.tryIt.mutationOptions());
  const isOwner = useAccount().current?.role === "owner";
  const [sample, setSample] = useState("");
  const kinds = settings.data?.kinds ?? [];
  const patterns = settings.data?.patterns ?? [];

  function submit(event: FormEvent) {
    event.preventDefault();
    tryIt.mutate({ text: sample });
  }

  return (
    <Card
      title="Redaction"
      labelledBy="redaction-title"
      description="Values found are replaced before anything is stored: traces, run event logs, chat sessions, evaluation results and webhook payloads (and, with model_input, before the model is called). Owners change the rules here (or with PUT /api/redaction/settings)."
    >
      <div className="flex flex-col gap-3 p-5 text-sm">
        <p data-testid="redaction-rules">
          {kinds.length === 0 && patterns.length === 0
            ? "Off: nothing is redacted."
            : `Redacting: ${[...kinds, ...patterns.map((p) => p.name)].join(", ")}.`}
        </p>
        {isOwner && settings.data && (
          // Keyed by what is saved, so a save (or another owner's) starts the form from the stored rules.
          <RedactionRulesForm key={JSON.stringify(settings.data)} saved={settings.data} />
        )}
        <form onSubmit={submit} className="flex flex-col gap-2">
          <label className="flex flex-col gap-1.5 font-medium">
            Try it
            <textarea
              name="sample"
              rows={3}
              value={sample}
              onChange={(event) => setSample(event.target.value)}
              placeholder="Paste a sample: Reach me at ada@example.com, card 4111 1111 1111 1111"
              className="rounded-md border border-line bg-surface p-2 font-mono text-xs"
            />
          </label>
          <div>
            <Button type="submit" size="sm" disabled={tryIt.isPending || sample === ""}>
              Show what is stored
            </Button>
          </div>
        </form>
        {tryIt.data && (
          <pre
            data-testid="redaction-result"
            className="rounded-md bg-surface-muted p-2 font-mono text-xs whitespace-pre-wrap"
          >
            {tryIt.data.redacted}
          </pre>
        )}
        {tryIt.error && <Notice tone="danger">{tryIt.error.message}</Notice>}
      </div>
    </Card>
  );
}

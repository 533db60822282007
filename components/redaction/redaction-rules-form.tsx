"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTRPC } from "@/components/trpc";
import { Button, Input, Notice, useToast } from "@/components/ui";
import type { RedactionSettingsInput } from "@/server/redaction";

/** The built-in kinds (server/redaction's detectors), in words. */
const KINDS = [
  ["email", "Email addresses"],
  ["phone", "Phone numbers"],
  ["card", "Payment card numbers"],
  ["iban", "IBANs"],
  ["secret", "Secrets (API keys, tokens)"],
] as const;

type Rules = RedactionSettingsInput;

/** Owners turn redaction on and edit its rules: built-in kinds, the project's own patterns, model input. */
export function RedactionRulesForm({ saved }: { saved: Rules }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const id = useId();
  const [rules, setRules] = useState<Rules>(saved);
  const save = useMutation(
    trpc.redaction.save.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.redaction.settings.queryKey() });
        toast({ title: "Redaction rules saved", description: "They apply to what is stored from now on." });
      },
    }),
  );
  const toggleKind = (kind: Rules["kinds"][number], on: boolean) =>
    setRules({ ...rules, kinds: on ? [...rules.kinds, kind] : rules.kinds.filter((k) => k !== kind) });
  const setPattern = (i: number, field: "name" | "pattern", value: string) =>
    setRules({ ...rules, patterns: rules.patterns.map((p, j) => (j === i ? { ...p, [field]: value } : p)) });
  return (
    <form
      aria-label="Redaction rules"
      className="flex flex-col gap-3 border-t border-line pt-3"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(rules);
      }}
    >
      <fieldset className="flex flex-col gap-1.5">
        <legend className="mb-1 font-medium">Redact these kinds</legend>
        {KINDS.map(([kind, label]) => (
          <label key={kind} className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={rules.kinds.includes(kind)}
              onChange={(e) => toggleKind(kind, e.target.checked)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">The project&apos;s own patterns (RE2)</legend>
        {rules.patterns.map((p, i) => (
          <div key={i} className="flex flex-wrap items-end gap-2" data-testid="redaction-pattern">
            <label className="flex flex-col gap-1 text-xs" htmlFor={`${id}-name-${i}`}>
              Name
              <Input
                id={`${id}-name-${i}`}
                value={p.name}
                onChange={(e) => setPattern(i, "name", e.target.value)}
                className="w-36 font-mono"
                required
              />
            </label>
            <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs" htmlFor={`${id}-pattern-${i}`}>
              Pattern
              <Input
                id={`${id}-pattern-${i}`}
                value={p.pattern}
                onChange={(e) => setPattern(i, "pattern", e.target.value)}
                className="font-mono"
                required
              />
            </label>
            <Button
              type="button"
              size="sm"
              variant="ghost"
              onClick={() => setRules({ ...rules, patterns: rules.patterns.filter((_, j) => j !== i) })}
              aria-label={`Remove pattern ${p.name || i + 1}`}
            >
              Remove
            </Button>
          </div>
        ))}
        <div>
          <Button
            type="button"
            size="sm"
            onClick={() => setRules({ ...rules, patterns: [...rules.patterns, { name: "", pattern: "" }] })}
          >
            Add a pattern
          </Button>
        </div>
      </fieldset>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={rules.model_input}
          onChange={(e) => setRules({ ...rules, model_input: e.target.checked })}
        />
        Also redact what is sent to the model
      </label>
      {save.error && <Notice tone="danger">{save.error.message}</Notice>}
      <div>
        <Button type="submit" variant="primary" size="sm" loading={save.isPending}>
          Save redaction rules
        </Button>
      </div>
    </form>
  );
}

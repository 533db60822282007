"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { useAccount } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Button, Input, Notice } from "@/components/ui";
import { ControlCard } from "./control-card";
import { Field } from "./field";
import { TargetSelect } from "./target-select";
import { useTargets } from "./use-targets";

/** Requests and tokens per minute per API key or agent; owners add and remove them. */
export function RateLimitsSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOwner = useAccount().current?.role === "owner";
  const limits = useQuery(trpc.controls.rateLimits.list.queryOptions());
  const targets = useTargets();
  const remove = useMutation(
    trpc.controls.rateLimits.delete.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.controls.rateLimits.pathKey() }),
    }),
  );
  return (
    <ControlCard
      title="Rate limits"
      testId="rate-limits"
      description="Requests and tokens per minute, per API key or per agent, counted across every instance of the service. Over a limit a turn is refused with 429, Retry-After and the RateLimit headers."
      query={limits}
      empty="No rate limit."
      canChange={isOwner}
      onRemove={(limit) => remove.mutate({ id: limit.id })}
      row={(limit) => (
        <p className="text-sm">
          {targets.labelOf(limit.scope, limit.target_id)}:{" "}
          {[
            limit.requests_per_minute && `${limit.requests_per_minute} requests`,
            limit.tokens_per_minute && `${limit.tokens_per_minute} tokens`,
          ]
            .filter(Boolean)
            .join(" and ")}{" "}
          per minute
        </p>
      )}
      form={<RateLimitForm />}
    />
  );
}

function RateLimitForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const targets = useTargets();
  const [scope, setScope] = useState<"api_key" | "agent">("api_key");
  const [target, setTarget] = useState("");
  const [rpm, setRpm] = useState("");
  const [tpm, setTpm] = useState("");
  const create = useMutation(
    trpc.controls.rateLimits.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.controls.rateLimits.pathKey() });
        setRpm("");
        setTpm("");
      },
    }),
  );
  return (
    <form
      aria-label="Add a rate limit"
      className="grid gap-3 border-t border-line pt-4 sm:grid-cols-5"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({
          scope,
          target_id: target || undefined,
          requests_per_minute: rpm ? Number(rpm) : undefined,
          tokens_per_minute: tpm ? Number(tpm) : undefined,
        });
      }}
    >
      <Field id={`${id}-scope`} label="Per">
        <SelectInput
          id={`${id}-scope`}
          value={scope}
          onChange={(e) => {
            setScope(e.target.value as typeof scope);
            setTarget("");
          }}
        >
          <option value="api_key">API key</option>
          <option value="agent">Agent</option>
        </SelectInput>
      </Field>
      <Field id={`${id}-target`} label="Which">
        <TargetSelect
          id={`${id}-target`}
          targets={scope === "agent" ? targets.agents : targets.apiKeys}
          value={target}
          onChange={setTarget}
          eachLabel={scope === "agent" ? "Each agent" : "Each API key"}
        />
      </Field>
      <Field id={`${id}-rpm`} label="Requests / minute">
        <Input id={`${id}-rpm`} inputMode="numeric" value={rpm} onChange={(e) => setRpm(e.target.value)} />
      </Field>
      <Field id={`${id}-tpm`} label="Tokens / minute">
        <Input id={`${id}-tpm`} inputMode="numeric" value={tpm} onChange={(e) => setTpm(e.target.value)} />
      </Field>
      <div className="flex items-end">
        <Button type="submit" variant="primary" loading={create.isPending}>
          Add limit
        </Button>
      </div>
      {create.error && (
        <div className="sm:col-span-5">
          <Notice tone="danger">{create.error.message}</Notice>
        </div>
      )}
    </form>
  );
}

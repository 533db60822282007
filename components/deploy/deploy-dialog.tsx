"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { DiffView, diffJson, hasChanges } from "@/components/diff";
import { splitText, useRunningCanary } from "@/components/environments/canary-split";
import { EnvironmentBadge } from "@/components/environments/environment-badge";
import { Author } from "@/components/history/author";
import { templateOf, variantSlugOf, versionLabel, type AgentRevision } from "@/components/history/types";
import { useTRPC } from "@/components/trpc";
import { Button, Dialog, Notice, QueryError, Skeleton, TimeAgo, useToast, Textarea } from "@/components/ui";
import { CanaryOptions, NO_CANARY, RAMP_STEPS, type CanaryChoice } from "./canary-options";
import { DeployEvidence } from "./deploy-evidence";
import type { AgentEnvironment } from "./use-agent-deployments";

/**
 * Confirms a deploy by showing exactly what changes: the diff between what the environment runs
 * now for this agent and the revision about to replace it (or the whole template on a first deploy).
 */
export function DeployDialog({
  revision,
  target,
  onClose,
}: {
  revision: AgentRevision | null;
  target: AgentEnvironment | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [message, setMessage] = useState("");
  const [canary, setCanary] = useState<CanaryChoice>(NO_CANARY);
  const deploy = useMutation(trpc.agents.deploy.mutationOptions());
  const startCanary = useMutation(trpc.canaries.start.mutationOptions());
  const open = revision !== null && target !== null;
  // A canary runs beside what the environment runs now: only when something else is deployed there.
  const canCanary = open && Boolean(target.deployment) && target.deployment!.revision.id !== revision.id;
  const asCanary = canCanary && canary.enabled;
  const pending = deploy.isPending || startCanary.isPending;
  const error = deploy.error ?? startCanary.error;

  function close() {
    if (pending) return;
    deploy.reset();
    startCanary.reset();
    setMessage("");
    setCanary(NO_CANARY);
    onClose();
  }

  function confirm() {
    if (!open) return;
    const env = target.environment.slug;
    const text = message.trim() || undefined;
    if (asCanary) {
      startCanary.mutate(
        {
          revisionId: revision.id,
          environment: env,
          weight: canary.weight,
          ramp: canary.ramp
            ? { steps: RAMP_STEPS.filter((w) => w > canary.weight), intervalMinutes: canary.intervalMinutes }
            : undefined,
          monitors: canary.monitors.length ? canary.monitors : undefined,
        },
        {
          onSuccess: async () => {
            await queryClient.invalidateQueries({ queryKey: trpc.environments.pathKey() });
            await queryClient.invalidateQueries({ queryKey: trpc.canaries.pathKey() });
            toast({ title: `Canary: ${versionLabel(revision)} takes ${canary.weight}% of ${env}` });
            startCanary.reset();
            setCanary(NO_CANARY);
            onClose();
          },
        },
      );
      return;
    }
    deploy.mutate(
      { revisionId: revision.id, environment: env, message: text },
      {
        onSuccess: async () => {
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: trpc.environments.pathKey() }),
            queryClient.invalidateQueries({ queryKey: trpc.agents.list.pathKey() }),
          ]);
          toast({ title: `Deployed ${versionLabel(revision)} to ${env}`, description: text });
          deploy.reset();
          setMessage("");
          onClose();
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      role="alertdialog"
      size="lg"
      className="max-w-5xl!"
      title={open ? `Deploy ${versionLabel(revision)} to ${target.environment.slug}?` : "Deploy"}
      description={
        open
          ? "Review what changes in this environment, then confirm. The deploy is recorded as a new revision of the environment."
          : undefined
      }
      status={
        error && (
          <Notice tone="danger" title={asCanary ? "Could not start the canary" : "Could not deploy"}>
            {error.message}
          </Notice>
        )
      }
      footer={
        open && (
          <>
            <span className="mr-auto self-center text-xs text-muted">Ctrl+Enter in the message deploys</span>
            <Button onClick={close} disabled={pending}>
              Cancel
            </Button>
            <Button variant="primary" loading={pending} onClick={confirm} data-autofocus>
              {asCanary
                ? `Start canary at ${canary.weight}%`
                : `Deploy ${versionLabel(revision)} to ${target.environment.slug}`}
            </Button>
          </>
        )
      }
    >
      {open && canCanary && <CanaryOptions choice={canary} onChange={setCanary} env={target.environment.slug} />}
      {open && (
        <DeployConfirmation
          revision={revision}
          target={target}
          asCanary={asCanary ? canary.weight : undefined}
          message={message}
          onMessageChange={setMessage}
          onSubmit={confirm}
        />
      )}
    </Dialog>
  );
}

function DeployConfirmation({
  revision,
  target,
  asCanary,
  message,
  onMessageChange,
  onSubmit,
}: {
  revision: AgentRevision;
  target: AgentEnvironment;
  /** The new revision's first share (percent) when released as a canary. */
  asCanary?: number;
  message: string;
  onMessageChange: (message: string) => void;
  onSubmit: () => void;
}) {
  const trpc = useTRPC();
  const messageId = useId();
  const env = target.environment.slug;
  const current = target.deployment;
  const currentRevision = useQuery({
    ...trpc.agents.revision.queryOptions({ id: current?.revision.id ?? "" }),
    enabled: Boolean(current),
  });
  const rows = useMemo(
    () =>
      current
        ? currentRevision.data
          ? diffJson(templateOf(currentRevision.data), templateOf(revision))
          : undefined
        : diffJson(undefined, templateOf(revision)),
    [current, currentRevision.data, revision],
  );
  const same = current?.revision.id === revision.id;
  const running = useRunningCanary(target.environment.id, current?.revision.id);
  const newLabel = versionLabel(revision);
  const newVariant = variantSlugOf(revision);

  return (
    <div className="flex flex-col gap-4">
      <div
        className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-line bg-surface-muted/50 px-4 py-3 text-sm"
        data-testid="deploy-summary"
      >
        <EnvironmentBadge slug={env} />
        {current ? (
          <span className="flex flex-wrap items-center gap-x-1.5">
            runs <span className="font-mono font-semibold">{versionLabel(current.revision)}</span>
            <span className="font-mono text-xs text-muted">({current.variant.slug})</span>
            {running && (
              <span className="text-xs font-medium text-warning" data-testid="deploy-summary-canary">
                with a canary: {splitText(running)}
              </span>
            )}
            {current.since && (
              <span className="flex items-center gap-1 text-muted">
                · deployed <TimeAgo iso={current.since.date} /> by <Author id={current.since.author} />
              </span>
            )}
          </span>
        ) : (
          <span className="text-muted">does not run this agent yet</span>
        )}
        <ArrowIcon />
        <span>
          will run <span className="font-mono font-semibold">{newLabel}</span>
          {newVariant && <span className="ml-1.5 font-mono text-xs text-muted">({newVariant})</span>}
          {asCanary !== undefined && current && (
            <span data-testid="deploy-summary-split">
              {" "}
              for {asCanary}% of the traffic, {versionLabel(current.revision)} for{" "}
              {Math.round((100 - asCanary) * 100) / 100}%
            </span>
          )}
        </span>
      </div>

      {running && !asCanary && !same && (
        <Notice tone="warning" title={`A canary runs in ${env}`}>
          Deploying {newLabel} here sends it all of {env}&apos;s traffic for this agent and ends the canary of v
          {running.candidate.version} ({running.weight}%).
        </Notice>
      )}
      {env === "production" && !same && (
        <Notice tone="warning" title="This changes production">
          {asCanary
            ? `${asCanary}% of the requests that resolve this agent through production get ${newLabel} as soon as you confirm; the rest keep ${current ? versionLabel(current.revision) : "what runs now"} until you promote or roll back.`
            : "Requests that resolve this agent through production get the new revision as soon as you confirm."}
        </Notice>
      )}
      {same && (
        <Notice title={`${env} already runs ${versionLabel(revision)}`}>
          Deploying again records a new deploy but changes nothing.
        </Notice>
      )}
      {!current && (
        <Notice title="First deployment">{`This agent has never run in ${env}; the whole template is new there.`}</Notice>
      )}

      <DeployEvidence
        environment={env}
        revision={{ id: revision.id, label: newLabel }}
        current={current && { id: current.revision.id, label: versionLabel(current.revision) }}
      />

      {currentRevision.isError ? (
        <QueryError
          title="Could not load what runs now"
          error={currentRevision.error}
          onRetry={() => currentRevision.refetch()}
          retrying={currentRevision.isFetching}
        />
      ) : !rows ? (
        <Skeleton className="h-64 w-full" />
      ) : (
        (hasChanges(rows) || !same) && (
          <DiffView
            rows={rows}
            label={
              current
                ? `Changes in ${env}: ${versionLabel(current.revision)} to ${versionLabel(revision)}`
                : `Template deployed to ${env}`
            }
            leftLabel={
              current ? (
                <span>
                  Now in {env}: <span className="font-mono">{versionLabel(current.revision)}</span>
                  <span className="ml-1.5 font-mono text-muted">{current.variant.slug}</span>
                </span>
              ) : (
                <span className="text-muted">Nothing deployed</span>
              )
            }
            rightLabel={
              <span>
                After deploy: <span className="font-mono">{newLabel}</span>
                {newVariant && <span className="ml-1.5 font-mono text-muted">{newVariant}</span>}
              </span>
            }
            maxHeightClass="max-h-[45vh]"
          />
        )
      )}

      <div className="flex flex-col gap-1.5">
        <label htmlFor={messageId} className="text-sm font-medium">
          Message <span className="font-normal text-muted">(optional)</span>
        </label>
        <Textarea
          id={messageId}
          value={message}
          onChange={(e) => onMessageChange(e.target.value)}
          rows={2}
          maxLength={10_000}
          placeholder={`Deploy ${versionLabel(revision)} to ${env}`}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) onSubmit();
          }}
        />
      </div>
    </div>
  );
}

function ArrowIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className="size-4 text-muted"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M5 12h14M13 6l6 6-6 6" />
    </svg>
  );
}

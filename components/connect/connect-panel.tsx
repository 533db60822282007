"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { SectionHeader, TabContainer } from "@/components/history";
import { runsPath } from "@/components/runs/run-paths";
import { useTRPC } from "@/components/trpc";
import { Badge, Button, CopyButton, Input, Notice, QueryView, Skeleton, useToast } from "@/components/ui";
import type { ConnectTarget } from "@/server/a2a";
import { a2aEndpoint, agentCardUrl, mcpConfigs, mcpEndpoint } from "./client-configs";
import { ConnectField } from "./connect-field";

/**
 * The Connect tab of an agent: for each environment, whether the agent is exposed there (MCP tool,
 * A2A agent), what to paste into Claude Desktop, Cursor, VS Code and an A2A client, and a test
 * that calls the A2A door; its runs appear on the Runs tab as "A2A".
 */
export function ConnectPanel({ agentId, variantId }: { agentId: string; variantId: string }) {
  const trpc = useTRPC();
  const agent = useQuery(trpc.agents.get.queryOptions({ id: agentId }));
  const project = useQuery(trpc.project.current.queryOptions());
  const slug = agent.data?.agent.slug ?? "";
  const targets = useQuery({ ...trpc.connect.targets.queryOptions({ slug }), enabled: Boolean(slug) });
  const origin = typeof window === "undefined" ? "" : window.location.origin;

  return (
    <TabContainer>
      <SectionHeader
        title="Connect"
        description="Expose this agent to agent clients: each exposed environment is a tool of the project's MCP server and an A2A agent. Clients authenticate with an API key of the project (Settings → API keys)."
        actions={
          <Link href="/connect" className="text-sm font-medium text-accent hover:underline">
            Everything the project exposes
          </Link>
        }
      />
      <QueryView query={targets} pending={<Skeleton className="h-32" />} errorTitle="Could not load the environments">
        {(list) => (
          <div className="flex flex-col gap-4">
            {(list as ConnectTarget[]).map((target) => (
              <TargetCard
                key={target.environment}
                target={target}
                slug={slug}
                origin={origin}
                projectId={project.data?.id ?? ""}
                runsHref={runsPath(agentId, variantId)}
              />
            ))}
          </div>
        )}
      </QueryView>
    </TabContainer>
  );
}

function TargetCard({
  target,
  slug,
  origin,
  projectId,
  runsHref,
}: {
  target: ConnectTarget;
  slug: string;
  origin: string;
  projectId: string;
  runsHref: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const toggle = useMutation(
    trpc.connect.setExposed.mutationOptions({
      onSuccess: async (_data, input) => {
        await queryClient.invalidateQueries({ queryKey: trpc.connect.pathKey() });
        toast({ title: input.exposed ? `Exposed ${target.name}` : `Stopped exposing ${target.name}` });
      },
      onError: (error) => toast({ title: "Could not change the exposure", description: error.message, tone: "danger" }),
    }),
  );
  const live = target.exposed && target.deployed;
  return (
    <section
      aria-label={`Connect ${target.environmentName}`}
      className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4 shadow-xs"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">{target.environmentName}</h3>
        <code className="text-xs text-muted">{target.name}</code>
        {target.deployed ? <Badge>Deployed</Badge> : <Badge tone="warning">Not deployed</Badge>}
        {target.exposed ? <Badge tone="success">Exposed</Badge> : <Badge>Not exposed</Badge>}
        <Button
          size="sm"
          variant={target.exposed ? "secondary" : "primary"}
          className="ml-auto"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate({ slug, environment: target.environment, exposed: !target.exposed })}
        >
          {target.exposed ? "Stop exposing" : "Expose"}
        </Button>
      </div>
      {target.exposed && !target.deployed && (
        <Notice tone="warning">
          Deploy the agent to {target.environmentName}: clients see only what an environment runs.
        </Notice>
      )}
      {live && projectId && (
        <>
          <Snippets target={target} origin={origin} projectId={projectId} />
          <DoorTest name={target.name} runsHref={runsHref} />
        </>
      )}
    </section>
  );
}

function Snippets({ target, origin, projectId }: { target: ConnectTarget; origin: string; projectId: string }) {
  const mcpUrl = mcpEndpoint(origin, projectId);
  const card = agentCardUrl(origin, projectId, target.name);
  return (
    <div className="flex flex-col gap-3">
      <ConnectField
        label="MCP endpoint (Streamable HTTP; this agent is the tool"
        value={mcpUrl}
        note={`${target.name})`}
      />
      {mcpConfigs(mcpUrl, "agents").map((config) => (
        <details key={config.client} className="rounded-md border border-line p-2">
          <summary className="cursor-pointer text-sm font-medium">
            {config.client} <span className="text-xs text-muted">{config.where}</span>
          </summary>
          <div className="mt-2 flex items-start gap-2">
            <pre className="flex-1 overflow-x-auto rounded bg-surface-muted p-2 text-xs">{config.text}</pre>
            <CopyButton value={config.text} size="sm" />
          </div>
        </details>
      ))}
      <ConnectField label="A2A agent card" value={card} />
      <ConnectField label="A2A JSON-RPC endpoint" value={a2aEndpoint(origin, projectId, target.name)} />
    </div>
  );
}

/** Sends one message through the A2A door and shows the answer. */
function DoorTest({ name, runsHref }: { name: string; runsHref: string }) {
  const trpc = useTRPC();
  const [message, setMessage] = useState("Hello");
  const test = useMutation(trpc.connect.testA2a.mutationOptions());
  function submit(event: FormEvent) {
    event.preventDefault();
    test.mutate({ name, message });
  }
  return (
    <form onSubmit={submit} aria-label={`Test ${name} over A2A`} className="flex flex-col gap-2">
      <div className="flex items-center gap-2">
        <Input
          aria-label="Test message"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          className="flex-1"
        />
        <Button type="submit" size="sm" disabled={test.isPending || !message.trim()}>
          {test.isPending ? "Calling…" : "Test over A2A"}
        </Button>
      </div>
      {test.error && <Notice tone="danger">{test.error.message}</Notice>}
      {test.data && (
        <div role="status" aria-label="A2A answer" className="rounded-md border border-line p-2 text-sm">
          <div className="mb-1 flex items-center gap-2 text-xs text-muted">
            <Badge tone={test.data.state === "completed" ? "success" : "danger"}>{test.data.state}</Badge>
            <span>task {test.data.taskId}</span>
            <Link href={runsHref} className="underline">
              on the Runs tab
            </Link>
          </div>
          <p className="whitespace-pre-wrap">{test.data.reply || test.data.error}</p>
        </div>
      )}
    </form>
  );
}
